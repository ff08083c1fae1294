import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { model } from '../../../test/helpers/paths'
import { HfHubStandIn, tinyFixtureRepos } from '../../../test/stand-ins/hf-hub'
import { ProfileStore } from '../../profiles/store'
import { renderArgs } from '../../profiles/profile-args'
import { UsageError } from '../cli-error'
import { modelsCommand, progressLine } from './models'
import { cliIo } from '../../../test/helpers/cli-io'
import { llamaServerBin } from '../../../test/helpers/llama-server-bin'
import { ENGINE_MANIFEST, enginesDir } from '../../engines/layout'

let hub: HfHubStandIn
let dir = ''
let serverBin = ''

beforeAll(async () => {
  // Found before HOME is stubbed: the test server's build cache is under the real home.
  serverBin = llamaServerBin()
  hub = new HfHubStandIn()
  for (const r of tinyFixtureRepos()) hub.addRepo(r)
  // The recipe's repos, served with the tiny fixtures under the names the Hub uses.
  hub.addRepo({
    id: 'unsloth/Qwen3.6-35B-A3B-GGUF',
    files: [
      { path: 'Qwen3.6-35B-A3B-Q4_K_M.gguf', body: readFileSync(model('tiny-target.gguf')) },
      { path: 'Qwen3.6-35B-A3B-IQ4_XS.gguf', body: readFileSync(model('tiny-target-iq.gguf')) },
    ],
  })
  hub.addRepo({
    id: 'unsloth/Qwen3.5-0.8B-GGUF',
    files: [{ path: 'Qwen3.5-0.8B-Q4_K_M.gguf', body: readFileSync(model('tiny-draft-qwen35.gguf')) }],
  })
  await hub.start()
})
afterAll(() => hub.close())
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'llama-tray-models-cli-'))
  // discover() looks in the user's home: a bare one, with the HF cache set apart.
  vi.stubEnv('HOME', join(dir, 'home'))
  vi.stubEnv('HF_ENDPOINT', hub.origin)
  vi.stubEnv('HF_HUB_CACHE', join(dir, 'hub'))
  vi.stubEnv('HF_TOKEN', '')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(dir, { recursive: true, force: true })
})

const io = () => cliIo(join(dir, 'llama-tray'))

describe('llama-tray models', () => {
  it('pull --json prints repo, file, path, size and sha256; list then shows the model from the HF cache', async () => {
    const ctx = io()
    expect(await modelsCommand.run(['pull', 'test-org/Tiny-GGUF:Q4_K_M', '--json'], ctx)).toBe(0)
    const pulled = JSON.parse(ctx.out()) as Record<string, unknown>
    const want = hub.repo('test-org/Tiny-GGUF').files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    expect(pulled).toEqual({
      repo: 'test-org/Tiny-GGUF',
      file: 'tiny-target-Q4_K_M.gguf',
      path: expect.stringContaining(join(dir, 'hub', 'models--test-org--Tiny-GGUF', 'snapshots')),
      sizeBytes: want.size,
      sha256: want.sha256,
    })
    expect(ctx.err()).toBe('') // no TTY: no progress

    const listed = io()
    expect(await modelsCommand.run(['list', '--json'], listed)).toBe(0)
    const models = JSON.parse(listed.out()) as { path: string; source: string; quantisation: string }[]
    expect(models).toEqual([
      expect.objectContaining({ path: pulled.path, source: 'Hugging Face cache', quantisation: 'Q4_K_M', problem: null }),
    ])
  })

  it('says what went wrong in one line with exit 1, and bad input is a usage error', async () => {
    const ctx = io()
    expect(await modelsCommand.run(['pull', 'test-org/Tiny-GGUF:Q3_K_S'], ctx)).toBe(1)
    expect(ctx.err()).toBe(
      'llama-tray: test-org/Tiny-GGUF has no Q3_K_S GGUF; it offers Q4_K_M, IQ4_XS (pull one of them with test-org/Tiny-GGUF:<quant>).\n',
    )
    const gated = io()
    expect(await modelsCommand.run(['pull', 'test-org/Gated-GGUF'], gated)).toBe(1)
    expect(gated.err()).toMatch(/^llama-tray: test-org\/Gated-GGUF is gated: accept its terms on .* set HF_TOKEN/)
    await expect(modelsCommand.run(['pull', 'no-slash'], io())).rejects.toThrow(UsageError)
    await expect(modelsCommand.run(['pull'], io())).rejects.toThrow(UsageError)
    await expect(modelsCommand.run(['fetch'], io())).rejects.toThrow(UsageError)
  })

  it('refuses a Hub file name with a NUL or a Windows climb in one line with exit 1, writing nothing (it was a stack trace)', async () => {
    hub.addRepo({ id: 'test-org/Hostile-GGUF', files: [{ path: 'x\0.gguf', body: Buffer.from('GGUF') }] })
    hub.addRepo({ id: 'test-org/Climbing-GGUF', files: [{ path: 'sub\\..\\..\\..\\x.gguf', body: Buffer.from('GGUF') }] })
    const cases = [
      ['test-org/Hostile-GGUF', 'holds a NUL character'],
      ['test-org/Climbing-GGUF', 'holds a backslash'],
    ] as const
    for (const [repo, why] of cases) {
      const ctx = io()
      expect(await modelsCommand.run(['pull', repo], ctx)).toBe(1)
      const line = `^llama-tray: ${repo} on \\S+ lists a file named "[^\n]+", which ${why}[^\n]*; report it to the repo's owner\\.\n$`
      expect(ctx.err()).toMatch(new RegExp(line))
    }
    expect(existsSync(join(dir, 'hub'))).toBe(false)
  })

  it('recipe pulls the model and its draft and stores a profile with the measured flags and a fitted --n-cpu-moe', async () => {
    const listed = io()
    expect(await modelsCommand.run(['recipe'], listed)).toBe(0)
    expect(listed.out()).toContain('qwen36-35b-a3b-8gb  Qwen3.6-35B-A3B Q4_K_M + Qwen3.5-0.8B draft for an 8 GB GPU')
    const ctx = io()
    expect(
      await modelsCommand.run(['recipe', 'qwen36-35b-a3b-8gb', '--binary', '/opt/llama/llama-server', '--vram-mib', '7900', '--json'], ctx),
    ).toBe(0)
    const out = JSON.parse(ctx.out()) as { profile: string; target: string; draft: string; nCpuMoe: number }
    expect(out.target).toContain(join('models--unsloth--Qwen3.6-35B-A3B-GGUF', 'snapshots'))
    expect(out.draft).toContain(join('models--unsloth--Qwen3.5-0.8B-GGUF', 'snapshots'))
    const stored = (await ProfileStore.open(ctx.home)).file.profiles.find((p) => p.id === out.profile)!
    expect(stored.binary).toBe('/opt/llama/llama-server')
    const args = renderArgs(stored)
    const value = (flag: string): string | undefined => args[args.indexOf(flag) + 1]
    expect(value('-m')).toBe(out.target)
    expect(value('-md')).toBe(out.draft)
    expect(value('--n-cpu-moe')).toBe(String(out.nCpuMoe))
    // The recipe's -c 65536 is capped at what the stand-in's tiny model was trained on (16384).
    for (const [flag, v] of [
      ['-c', '16384'],
      ['--cache-type-k', 'q4_0'],
      ['--temp', '0.6'],
      ['--presence-penalty', '1.5'],
      ['--reasoning', 'off'],
    ])
      expect(value(flag as string)).toBe(v)
    expect(args).toContain('--no-mmap')
    await expect(modelsCommand.run(['recipe', 'nope'], io())).rejects.toThrow(/No recipe "nope"/)
  })

  it('recipe without --binary runs the engine Llama Tray installed, as the dashboard picks it', async () => {
    const ctx = io()
    // An installed engine (its manifest, and the real llama-server as its binary), and no llama-server on PATH.
    const engine = join(enginesDir(ctx.home), 'b1-cpu')
    await mkdir(engine, { recursive: true })
    await symlink(serverBin, join(engine, 'llama-server'))
    const manifest = { version: 1, id: 'b1-cpu', tag: 'b1', backend: 'cpu', publishedAt: null, binary: 'llama-server' }
    const installedAt = new Date().toISOString()
    await writeFile(join(engine, ENGINE_MANIFEST), JSON.stringify({ ...manifest, engineVersion: null, assets: [], installedAt }))
    const emptyPath = join(dir, 'empty-path')
    await mkdir(emptyPath)
    vi.stubEnv('PATH', emptyPath)
    expect(await modelsCommand.run(['recipe', 'qwen36-35b-a3b-8gb', '--vram-mib', '7900', '--json'], ctx)).toBe(0)
    const { profile } = JSON.parse(ctx.out()) as { profile: string }
    const stored = (await ProfileStore.open(ctx.home)).file.profiles.find((p) => p.id === profile)
    expect(stored?.binary).toBe(join(engine, 'llama-server'))
  })

  it('writes progress as one line with percent, megabytes and rate', () => {
    expect(progressLine({ file: 'a.gguf', bytes: 5e8, total: 2e9, rateBps: 2.5e7 })).toBe(' 25%  500.0 / 2000.0 MB  25.0 MB/s  a.gguf')
  })
})
