import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../test/helpers/cli'
import { runCliInProcess } from '../../../test/helpers/cli-in-process'
import { llamaServerBin } from '../../../test/helpers/llama-server-bin'
import { model } from '../../../test/helpers/paths'
import { fakeGpuEnv } from '../../../test/support/bench/fake-gpu'

// The fake nvidia-smi first on PATH: one GPU whose free memory is totalMiB − idleMiB while no server of ours runs.
const IDLE_MIB = 300
const HEADROOM_MIB = 1536 // the settings' default
// No server runs in these tests, so only the idle use counts.
const FAKE_GPU = { idleMiB: IDLE_MIB, serverMiB: 600, perGpuExpertLayerMiB: 150, layers: 40, draftMiB: 200 }

describe('llama-tray profiles pin | unpin', () => {
  let home: string
  const estimate: Record<string, number> = {}
  const cli = (args: string[], totalMiB = 64_000) => runCli(['--home', home, ...args], fakeGpuEnv({ ...FAKE_GPU, totalMiB }))

  // Importing and the fit read no GPU: the bin's entry in-process, a process less each.
  const setUp = (args: string[]) => runCliInProcess(['--home', home, ...args])

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-pin-cli-'))
    const bin = llamaServerBin()
    const files = { big: 'tiny-target.gguf', small: 'tiny-draft.gguf', extra: 'tiny-target-iq.gguf' }
    for (const [name, file] of Object.entries(files)) {
      const imported = await setUp(['profiles', 'import', '--name', name, '--', bin, '-m', model(file), '-ngl', '99', '-c', '2048'])
      expect(imported.code, imported.stderr).toBe(0)
      // The same estimate the pin check uses (the fit with no budget: what the server will hold on the GPU).
      const fit = await setUp(['fit', name, '--json'])
      estimate[name] = (JSON.parse(fit.stdout) as { gpuProcessMiB: number }).gpuProcessMiB
    }
    expect((await cli(['profiles', 'use', 'big'])).code).toBe(0)
  }, 120_000)
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it('pins a profile that fits beside the active one, refuses one that does not (naming which and by how much), unpins', async () => {
    const big = estimate.big as number
    const small = estimate.small as number
    const extra = estimate.extra as number
    // Room for big and small beside each other, and for half of extra.
    const totalMiB = Math.ceil(IDLE_MIB + HEADROOM_MIB + big + small + extra / 2)
    const pinned = await cli(['profiles', 'pin', 'small'], totalMiB)
    expect(pinned.code, pinned.stderr).toBe(0)
    expect(pinned.stdout).toMatch(/^Pinned small: .*\.$/m)

    const refused = await cli(['profiles', 'pin', 'extra'], totalMiB)
    expect(refused.code).toBe(2)
    const freeGiB = ((totalMiB - IDLE_MIB - HEADROOM_MIB - big - small) / 1024).toFixed(1)
    const shortMiB = Math.ceil(extra - (totalMiB - IDLE_MIB - HEADROOM_MIB - big - small))
    expect(refused.stderr.trim()).toBe(
      `llama-tray: Pinning extra needs ${shortMiB} MiB more than the ${freeGiB} GiB free beside big and small; ` +
        'unpin another profile or lower -ngl.',
    )

    const list = JSON.parse((await cli(['profiles', 'list', '--json'])).stdout) as { profiles: { id: string; pinned: boolean }[] }
    expect(list.profiles.map((p) => [p.id, p.pinned])).toEqual([
      ['big', false],
      ['small', true],
      ['extra', false],
    ])
    expect((await cli(['profiles', 'list'])).stdout).toMatch(/small .*\(pinned\)/)

    const unpinned = await cli(['profiles', 'unpin', 'small'])
    expect(unpinned.code, unpinned.stderr).toBe(0)
    // With small unpinned, extra fits where it did not.
    expect((await cli(['profiles', 'pin', 'extra'], totalMiB)).code).toBe(0)
  }, 120_000)

  it('refuses, with exit code 2 and one sentence, to unpin what is not pinned and to pin the active profile', async () => {
    const again = await cli(['profiles', 'unpin', 'small'])
    expect(again.code).toBe(2)
    expect(again.stderr.trim()).toBe(
      'llama-tray: Profile "small" is not pinned, so there is nothing to unpin; the profile list marks the pinned ones.',
    )
    const active = await cli(['profiles', 'pin', 'big'])
    expect(active.code).toBe(2)
    expect(active.stderr.trim()).toMatch(/^llama-tray: Profile "big" is the active profile, so it runs already; .*\.$/)
    const unknown = await cli(['profiles', 'pin', 'nope'])
    expect(unknown.code).toBe(2)
  }, 60_000)
})
