import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli'
import { runCliInProcess } from './helpers/cli-in-process'
import { llamaServerBin } from './helpers/llama-server-bin'
import { model } from './helpers/paths'

// Issue #25, "CLI as a person types it": profiles import and profiles list. The first case runs the built bin; the
// others its entry in-process (the same words and exit codes, a process less each).
let scratch: string
let bin: string
let n = 0
const freshHome = (): string => join(scratch, `home-${n++}`)
const storedNames = (home: string): string[] => {
  try {
    return (JSON.parse(readFileSync(join(home, 'profiles.json'), 'utf8')) as { profiles: Array<{ name: string }> }).profiles.map(
      (p) => p.name,
    )
  } catch {
    return []
  }
}
/** One sentence on one line: a capital first, a period last. */
const oneSentence = /^llama-tray: [A-Z"][^\n]*\.\n$/

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'llama-tray-cli-import-'))
  bin = llamaServerBin()
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('llama-tray profiles import', () => {
  it('takes a command typed without "--"', async () => {
    const home = freshHome()
    const r = await runCli(['--home', home, 'profiles', 'import', '--name', 'typed', bin, '-m', model('tiny-target.gguf'), '-c', '2048'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Imported "typed" as typed: \d+ arguments\.$/m)
    expect(storedNames(home)).toEqual(['typed'])
  }, 60_000)

  it('refuses a -m file that does not exist, naming it; --force stores it marked missing', async () => {
    const home = freshHome()
    const missing = join(scratch, 'nowhere', 'moving.gguf')
    const refused = await runCliInProcess(['--home', home, 'profiles', 'import', 'llama-server', '-m', missing])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(oneSentence)
    expect(refused.stderr).toContain(missing)
    expect(storedNames(home)).toEqual([])
    const forced = await runCliInProcess(['--home', home, 'profiles', 'import', '--force', 'llama-server', '-m', missing])
    expect(forced.code).toBe(0)
    const list = await runCliInProcess(['--home', home, 'profiles', 'list'])
    expect(list.stdout).toMatch(/ moving {2}moving\.gguf \(missing\) {2}engine not detected yet\n/)
    const json = JSON.parse((await runCliInProcess(['--home', home, 'profiles', 'list', '--json'])).stdout) as {
      profiles: Array<{ modelMissing: boolean }>
    }
    expect(json.profiles.map((p) => p.modelMissing)).toEqual([true])
  }, 60_000)

  it('refuses a command that is not a llama-server in one sentence; --force overrides', async () => {
    const home = freshHome()
    const refused = await runCliInProcess(['--home', home, 'profiles', 'import', 'ollama', 'run', 'qwen3:30b'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(oneSentence)
    expect(refused.stderr).toContain('The program "ollama" is not a llama-server')
    expect(storedNames(home)).toEqual([])
    const forced = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--force',
      '--name',
      'ollama',
      '--',
      'ollama',
      'run',
      'qwen3:30b',
    ])
    expect(forced.code).toBe(0)
    expect(storedNames(home)).toEqual(['ollama'])
  }, 60_000)

  it('refuses a duplicate name (exit 2); --replace overwrites it', async () => {
    const home = freshHome()
    const first = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--name',
      'dup',
      bin,
      '-m',
      model('tiny-target.gguf'),
      '-c',
      '2048',
    ])
    expect(first.code).toBe(0)
    const again = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--name',
      'dup',
      bin,
      '-m',
      model('tiny-target.gguf'),
      '-c',
      '4096',
    ])
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(oneSentence)
    expect(again.stderr).toContain('A profile named "dup" exists already')
    const replaced = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--replace',
      '--name',
      'dup',
      bin,
      '-m',
      model('tiny-target.gguf'),
      '-c',
      '4096',
    ])
    expect(replaced.code).toBe(0)
    expect(replaced.stdout).toMatch(/^Replaced "dup" as dup: \d+ arguments\.$/m)
    expect(storedNames(home)).toEqual(['dup'])
    expect((await runCliInProcess(['--home', home, 'profiles', 'export', 'dup'])).stdout).toMatch(/-c 4096/)
  }, 60_000)

  it("writes a seed-style --no-mmap and bare -md in the binary's spelling, says so once, and lists model, engine and active", async () => {
    const home = freshHome()
    const r = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--name',
      'seedlike',
      bin,
      '-m',
      model('tiny-target.gguf'),
      '--no-mmap',
      '-md',
      model('tiny-draft.gguf'),
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const notices = r.stdout.split('\n').slice(1).filter(Boolean)
    expect(notices).toEqual([
      expect.stringMatching(/^The flag --no-mmap was written as -lm none, because llama\.cpp mainline .*\.$/),
      expect.stringMatching(/^The flag --spec-type draft-simple was added beside -md, because .* does not use -md without it\.$/),
    ])
    const exported = (await runCliInProcess(['--home', home, 'profiles', 'export', 'seedlike'])).stdout
    expect(exported).toMatch(/-lm none/)
    expect(exported).toMatch(/--spec-type draft-simple/)
    expect(exported).not.toMatch(/--no-mmap/)
    expect((await runCliInProcess(['--home', home, 'profiles', 'use', 'seedlike'])).code).toBe(0)
    const list = (await runCliInProcess(['--home', home, 'profiles', 'list'])).stdout
    // The engine's fork and version, as detected from the binary (the test server is mainline "0.5.0-dev").
    expect(list).toMatch(/^\* seedlike {2}seedlike {2}tiny-target\.gguf {2}engine mainline \S+ {2}\(active\)\n$/)
  }, 60_000)
})

// Issue #29: the CLI runs the dashboard's profile actions (app/core/profile-actions.ts); an unknown profile reads the same there.
describe('llama-tray profiles on the shared actions', () => {
  it('names an unknown profile in one sentence for show, export, rm and use (exit 2), and changes nothing', async () => {
    const home = freshHome()
    expect(
      (await runCliInProcess(['--home', home, 'profiles', 'import', '--name', 'kept', bin, '-m', model('tiny-target.gguf')])).code,
    ).toBe(0)
    for (const verb of ['show', 'export', 'rm', 'use']) {
      const r = await runCliInProcess(['--home', home, 'profiles', verb, 'nowhere'])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(oneSentence)
      expect(r.stderr).toContain('"nowhere"')
    }
    expect(storedNames(home)).toEqual(['kept'])
    expect((await runCliInProcess(['--home', home, 'profiles', 'rm', 'Kept'])).stdout).toBe('Removed profile kept.\n')
    expect(storedNames(home)).toEqual([])
  }, 60_000)
})
