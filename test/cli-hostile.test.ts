import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { GGML_TYPE_ID } from '../app/fit/ggml-types'
import { writeSyntheticGguf } from './helpers/synthetic/write-gguf'
import { runCli } from './helpers/cli'
import { HOSTILE_GGUFS } from './fuzz/hostile-ggufs'

const root = mkdtempSync(join(tmpdir(), 'llama-tray-cli-hostile-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const ESC = '\u001b'
const now = new Date().toISOString()
const profile = (id: string, name: string, extraArgs: string[]): object => ({
  id,
  name,
  binary: '/bin/true',
  model: 'm.gguf',
  settings: {},
  extraArgs,
  argOrder: extraArgs.length > 0 ? [{ extra: extraArgs.length }] : [],
  env: {},
  notes: '',
  createdAt: now,
  updatedAt: now,
})

/** A home whose profiles.json was written by hand (or by an older version): the store accepts it as it is. */
function homeWith(...profiles: object[]): string {
  const home = mkdtempSync(join(root, 'home-'))
  writeFileSync(join(home, 'profiles.json'), JSON.stringify({ version: 1, activeProfileId: null, profiles }))
  return home
}

describe('the built CLI on hostile stored data (issue #26)', () => {
  it('shows and exports a 200,000-argument profile, and run refuses it in one sentence', async () => {
    const home = homeWith(
      profile(
        'big',
        'big',
        Array.from({ length: 200_000 }, (_, i) => `--x${i}`),
      ),
    )
    for (const args of [
      ['profiles', 'show', 'big'],
      ['profiles', 'export', 'big', '--format', 'bash'],
    ]) {
      const r = await runCli(['--home', home, ...args])
      expect(r.stderr, args.join(' ')).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('--x199999')
    }
    const run = await runCli(['--home', home, 'run', 'big'])
    expect(run.stderr).toBe(
      'llama-tray: Profile "big" has 200,000 arguments, more than the 4,096 a llama-server command can have: import its command again ' +
        '(llama-tray profiles import).\n',
    )
    expect(run.code).toBe(2)
    // Three CLI runs that each load a 20 MB profiles file (~3 s apiece on an idle 2-core machine): a sanity bound, not a goal.
  }, 120_000)

  it('prints a profile name with ANSI escapes without them', async () => {
    const home = homeWith(profile('evil', `${ESC}]0;pwned${ESC}\\${ESC}[31mred\u009b2J name${ESC}[0m`, []))
    const r = await runCli(['--home', home, 'profiles', 'list'])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('  evil  ]0;pwned\\[31mred2J name[0m  m.gguf (missing)  engine not detected yet\n')
  })

  it('models list prints a GGUF architecture with escapes without them, and lists the hostile files with their reason', async () => {
    const dir = join(root, 'models')
    mkdirSync(dir)
    await writeSyntheticGguf(join(dir, 'ansi.gguf'), {
      metadata: { 'general.architecture': `${ESC}[2J${ESC}[31mevil`, 'x.block_count': 1 },
      tensors: [{ name: 'token_embd.weight', shape: [32, 8], typeId: GGML_TYPE_ID.f32 as number }],
    })
    for (const h of HOSTILE_GGUFS) await h.write(join(dir, h.name))
    const r = await runCli(['--home', join(root, 'tray'), 'models', 'list', '--models-dir', dir])
    expect(r.code).toBe(0)
    expect(r.stdout + r.stderr).not.toContain(ESC)
    expect(r.stdout).toContain('[2J[31mevil')
    for (const h of HOSTILE_GGUFS) expect(r.stdout).toMatch(h.why)
  })
})
