import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { profileCommands } from '../core/profile-commands'
import { LlamaTrayCore } from '../core/llama-tray-core'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning } from '../../test/helpers/processes'

let root: string
let core: LlamaTrayCore | null = null

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'llama-tray-discovery-e2e-'))
}, 900_000)

afterAll(async () => {
  const pid = core?.server.getStatus().pid
  await core?.dispose()
  if (pid) expect(isRunning(pid)).toBe(false)
  rmSync(root, { recursive: true, force: true })
})

describe('a new user: discover → create → start, without typing a path', () => {
  it('finds the real llama-server on PATH and a model in the LM Studio folder, and the created profile reaches ready', async () => {
    const home = join(root, 'home')
    const tray = join(root, 'tray')
    const pathDir = join(root, 'bin')
    mkdirSync(pathDir)
    symlinkSync(llamaServerBin(), join(pathDir, 'llama-server'))
    const lms = join(home, '.lmstudio', 'models', 'someone', 'Tiny-GGUF')
    mkdirSync(lms, { recursive: true })
    copyFileSync(model('tiny-target.gguf'), join(lms, 'Tiny-Target-Q8_0.gguf'))
    copyFileSync(model('tiny-draft.gguf'), join(lms, 'tiny-draft.gguf'))

    const profiles = profileCommands({
      home: tray,
      chooseFile: async () => null,
      onChanged: async () => {},
      discovery: { homedir: home, platform: 'linux', env: { PATH: pathDir } },
    })
    expect(await profiles['profiles:create-discovered']('b-0000000000', 'm-0000000000', null, null)).toMatchObject({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/discover first/) }),
    })
    const started = Date.now()
    const found = await profiles['profiles:discover']()
    const discoverMs = Date.now() - started
    expect(found.ok).toBe(true)
    if (!found.ok) return
    const binary = found.value.binaries.find((b) => b.source === 'PATH')
    const target = found.value.models.find((m) => !m.looksLikeDraft)
    expect(binary?.path).toBe(join(pathDir, 'llama-server'))
    expect(target).toMatchObject({ architecture: 'qwen35moe', quantisation: 'Q8_0', experts: 8, trainingContext: 16384 })
    if (!binary || !target) return

    const created = await profiles['profiles:create-discovered'](binary.id, target.id, null, null)
    expect(created).toMatchObject({ ok: true, value: { name: 'Tiny-Target-Q8_0', binary: binary.path, model: target.path } })
    if (!created.ok) return
    expect(await profiles['profiles:create-discovered'](binary.id, '/etc/passwd', null, null)).toMatchObject({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/No discovered model/) }),
    })

    core = await LlamaTrayCore.create({ home: tray, telemetry: null, supervisor: { healthIntervalMs: 20 } })
    const t0 = Date.now()
    const status = await core.handlers['server:start'](created.value.id)
    expect(status.ok && status.value.state).toBe('ready')
    expect((await core.handlers['profiles:get'](created.value.id))?.settings).toEqual({
      gpuLayers: '99',
      ctxSize: 8192,
      parallel: 1,
      cpuMoe: true,
      loadMode: 'none',
    })
    process.stdout.write(`discovery: ${discoverMs} ms; start to ready: ${Date.now() - t0} ms\n`)
    expect((await core.handlers['server:stop']()).state).toBe('stopped')
  }, 120_000)
})
