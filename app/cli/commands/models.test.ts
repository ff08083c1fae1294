import { EventEmitter } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { HfHubStandIn, tinyFixtureRepos } from '../../../test/stand-ins/hf-hub'
import { UsageError } from '../cli-error'
import type { CliContext } from '../command'
import { modelsCommand, progressLine } from './models'

let hub: HfHubStandIn
let dir = ''

beforeAll(async () => {
  hub = new HfHubStandIn()
  for (const r of tinyFixtureRepos()) hub.addRepo(r)
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

function io(): CliContext & { out: () => string; err: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (c: Buffer) => (out += c.toString()))
  stderr.on('data', (c: Buffer) => (err += c.toString()))
  return { home: join(dir, 'llama-tray'), stdout, stderr, signals: new EventEmitter(), out: () => out, err: () => err }
}

describe('llama-tray models', () => {
  it('pull --json prints repo, file, path, size and sha256; list then shows the model from the HF cache', async () => {
    const ctx = io()
    expect(await modelsCommand.run(['pull', 'test-org/Tiny-GGUF:Q4_K_M', '--json'], ctx)).toBe(0)
    const pulled = JSON.parse(ctx.out()) as Record<string, unknown>
    const want = hub.repo('test-org/Tiny-GGUF').files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    expect(pulled).toEqual({ repo: 'test-org/Tiny-GGUF', file: 'tiny-target-Q4_K_M.gguf', path: expect.stringContaining(join(dir, 'hub', 'models--test-org--Tiny-GGUF', 'snapshots')), sizeBytes: want.size, sha256: want.sha256 })
    expect(ctx.err()).toBe('') // no TTY: no progress

    const listed = io()
    expect(await modelsCommand.run(['list', '--json'], listed)).toBe(0)
    const models = JSON.parse(listed.out()) as { path: string; source: string; quantisation: string }[]
    expect(models).toEqual([expect.objectContaining({ path: pulled.path, source: 'Hugging Face cache', quantisation: 'Q4_K_M', problem: null })])
  })

  it('says what went wrong in one line with exit 1, and bad input is a usage error', async () => {
    const ctx = io()
    expect(await modelsCommand.run(['pull', 'test-org/Tiny-GGUF:Q3_K_S'], ctx)).toBe(1)
    expect(ctx.err()).toBe('llama-tray: test-org/Tiny-GGUF has no Q3_K_S GGUF; it offers Q4_K_M, IQ4_XS (pull one of them with test-org/Tiny-GGUF:<quant>).\n')
    const gated = io()
    expect(await modelsCommand.run(['pull', 'test-org/Gated-GGUF'], gated)).toBe(1)
    expect(gated.err()).toMatch(/^llama-tray: test-org\/Gated-GGUF is gated: accept its terms on .* set HF_TOKEN/)
    await expect(modelsCommand.run(['pull', 'no-slash'], io())).rejects.toThrow(UsageError)
    await expect(modelsCommand.run(['pull'], io())).rejects.toThrow(UsageError)
    await expect(modelsCommand.run(['fetch'], io())).rejects.toThrow(UsageError)
  })

  it('writes progress as one line with percent, megabytes and rate', () => {
    expect(progressLine({ file: 'a.gguf', bytes: 5e8, total: 2e9, rateBps: 2.5e7 })).toBe(' 25%  500.0 / 2000.0 MB  25.0 MB/s  a.gguf')
  })
})
