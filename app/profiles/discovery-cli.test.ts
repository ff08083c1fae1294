import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Discovery } from '../contract/profile'
import { UsageError } from '../cli/cli-error'
import { profilesCommand } from '../cli/commands/profiles'
import { model } from '../../test/helpers/paths'
import type { Profile } from './schema'
import { ProfileStore } from './store'
import { cliIo } from '../../test/helpers/cli-io'

let root: string
let tray: string
const saved = { HOME: process.env.HOME, PATH: process.env.PATH, HF_HOME: process.env.HF_HOME }

// The CLI discovers in this process's environment: point HOME, PATH and HF_HOME at a fake machine (vitest runs each file in its own
// process).
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'llama-tray-discovery-cli-'))
  tray = join(root, 'tray')
  const bin = join(root, 'bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'llama-server'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(bin, 'llama-server'), 0o755)
  const models = join(root, 'my models')
  mkdirSync(models)
  copyFileSync(model('tiny-target.gguf'), join(models, 'Tiny-Target-Q8_0.gguf'))
  copyFileSync(model('tiny-draft.gguf'), join(models, 'tiny-draft.gguf'))
  process.env.HOME = join(root, 'home')
  process.env.PATH = `${bin}:${saved.PATH ?? ''}`
  process.env.HF_HOME = join(root, 'hf')
})

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(root, { recursive: true, force: true })
})

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const io = cliIo(tray)
  return { code: await profilesCommand.run(args, io), out: io.out() }
}

const dir = (): string[] => ['--models-dir', join(root, 'my models')]

describe('llama-tray profiles discover / create', () => {
  it('lists binaries and models with numbers, as JSON too', async () => {
    const json = JSON.parse((await cli(['discover', '--json', ...dir()])).out) as Discovery
    const ours = json.binaries.findIndex((b) => b.path === join(root, 'bin', 'llama-server'))
    expect(ours).toBe(0) // PATH comes before the install folders
    expect(json.models.map((m) => [m.path.split('/').pop(), m.looksLikeDraft])).toEqual([
      ['Tiny-Target-Q8_0.gguf', false],
      ['tiny-draft.gguf', true],
    ])
    const human = (await cli(['discover', ...dir()])).out
    expect(human).toMatch(/b1 {2}.*bin\/llama-server {2}\(PATH/)
    expect(human).toMatch(/m1 {2}.*Tiny-Target-Q8_0\.gguf\n\s+qwen35moe, Q8_0, 6\.4 MiB, 40 layers, 8 experts, ctx 16384/)
    expect(human).toMatch(/m2 .*\n.*draft-sized/)
  })

  it('create picks by number; discover --create picks the best model and its draft', async () => {
    expect((await cli(['create', '--binary', 'b1', '--model', 'm1', '--name', 'picked', ...dir()])).code).toBe(0)
    expect((await cli(['discover', '--create', '--json', ...dir()])).code).toBe(0)
    const store = await ProfileStore.open(tray)
    const picked = store.find('picked') as Profile
    expect(picked).toMatchObject({
      binary: join(root, 'bin', 'llama-server'),
      model: join(root, 'my models', 'Tiny-Target-Q8_0.gguf'),
      settings: { ctxSize: 8192, parallel: 1, cpuMoe: true },
    })
    expect(picked.draftModel).toBeUndefined()
    const auto = store.find('Tiny-Target-Q8_0') as Profile
    expect(auto.draftModel).toBe(join(root, 'my models', 'tiny-draft.gguf'))
  })

  it('refuses a path or an unknown number with a one-line usage error', async () => {
    await expect(cli(['create', '--binary', '/bin/sh', '--model', 'm1', ...dir()])).rejects.toThrow(UsageError)
    await expect(cli(['create', '--binary', 'b1', '--model', 'm99', ...dir()])).rejects.toThrow(/no discovered model "99"/)
    await expect(cli(['create', '--binary', 'b1'])).rejects.toThrow(/needs --binary and --model/)
  })
})
