import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { MODELS } from '../../test/helpers/paths'
import { ServerSupervisor } from '../supervisor/supervisor'
import { importArgv, importCommand } from './import-command'
import { acceptFixes, assertLaunchable, ProfileLaunchError, resolveProfileLaunch } from './resolve-launch'
import { SEED_4060_QWEN36 } from './seed-commands'
import { ProfileStore } from './store'
import { switchProfile } from './switch-profile'

const target = join(MODELS, 'tiny-target.gguf')
const draft = join(MODELS, 'tiny-draft.gguf')

describe('switching profiles on the real llama-server', () => {
  let binary: string
  let home: string
  let supervisor: ServerSupervisor
  beforeAll(async () => {
    binary = llamaServerBin()
    home = await mkdtemp(join(tmpdir(), 'llama-tray-switch-'))
    supervisor = new ServerSupervisor({ home, readyTimeoutMs: 60_000 })
    const store = await ProfileStore.open(home)
    await store.upsert(importArgv([binary, '-m', target, '-c', '4096', '-np', '1', '-t', '1'], { name: 'plain' }))
    await store.upsert(
      importArgv([binary, '-m', target, '-c', '4096', '-np', '1', '-t', '1', '-md', draft, '--spec-type', 'draft-simple'], {
        name: 'draft',
      }),
    )
    await store.upsert(importArgv([binary, '-m', join(MODELS, 'missing.gguf'), '-c', '4096', '-np', '1', '-t', '1'], { name: 'broken' }))
    // The 4060 seed's flags with the tiny models (its --no-mmap is gone in this build).
    const seed = importCommand(SEED_4060_QWEN36, { name: 'seed' })
    await store.upsert({
      ...seed,
      binary,
      model: target,
      draftModel: draft,
      settings: { ...seed.settings, ctxSize: 4096, gpuLayers: '0', draftGpuLayers: '0' },
    })
  }, 900_000)
  afterAll(async () => {
    await supervisor.dispose()
    await rm(home, { recursive: true, force: true })
  })

  it('switches between the target with and without the draft, recording the active profile', async () => {
    const a = await switchProfile(supervisor, home, 'plain')
    expect(a.ok).toBe(true)
    const b = await switchProfile(supervisor, home, 'draft')
    expect(b.ok).toBe(true)
    expect(supervisor.getStatus().state).toBe('ready')
    if (!b.ok) return
    expect(b.previousProfileId).toBe('plain')
    const store = await ProfileStore.open(home)
    expect([store.file.activeProfileId, store.file.previousProfileId]).toEqual(['draft', 'plain'])
    // Our own work in a switch, beyond the server's stop and start.
    console.log(
      `switch plain → draft: resolve ${b.timings.resolveMs.toFixed(1)} ms, stop ${b.timings.stopMs.toFixed(0)} ms, start ` +
        `${b.timings.startMs.toFixed(0)} ` +
        `ms, record ${b.timings.recordMs.toFixed(1)} ms`,
    )
    // The goal (< 150 ms of our own work) is measured by `npm run bench switch`, not asserted here.
    expect(b.timings.resolveMs + b.timings.recordMs).toBeGreaterThan(0)
  }, 120_000)

  it('a failed start leaves the old profile recorded and one click away', async () => {
    const failed = await switchProfile(supervisor, home, 'broken')
    expect(failed.ok).toBe(false)
    if (failed.ok) return
    expect(failed.rollbackProfileId).toBe('draft')
    expect(failed.reason).toMatch(/model/i)
    expect((await ProfileStore.open(home)).file.activeProfileId).toBe('draft')
    const back = await switchProfile(supervisor, home, failed.rollbackProfileId as string)
    expect(back.ok).toBe(true)
  }, 120_000)

  it('refuses the seed profile with --no-mmap (naming -lm none) without stopping the server, and starts it after the fix is accepted', async () => {
    const resolved = await resolveProfileLaunch(home, 'seed')
    expect(() => assertLaunchable(resolved)).toThrow(ProfileLaunchError)
    expect(() => assertLaunchable(resolved)).toThrow(/--no-mmap.*-lm none/)
    const refused = await switchProfile(supervisor, home, 'seed')
    expect(refused.ok).toBe(false)
    expect(supervisor.getStatus().state).toBe('ready') // the running server was left alone
    const { fixed } = await acceptFixes(home, 'seed')
    expect(fixed.map((p) => p.flag)).toContain('--no-mmap')
    const started = await switchProfile(supervisor, home, 'seed')
    expect(started.ok).toBe(true)
    if (started.ok) expect(started.status.state).toBe('ready')
  }, 120_000)
})
