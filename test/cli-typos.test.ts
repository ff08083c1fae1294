import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli'
import { runCliInProcess } from './helpers/cli-in-process'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-typos-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

const COMMANDS = 'run, serve, profiles, models, engines, gpu, fit, lint, bench, compare, tune, settings, diagnostics, history'

// Issue #25: what a person mistypes gets one sentence with the fix, never the argument parser's own text. The first
// cases go through the built bin; the rest through its entry in-process (the same words, a process less each).
describe('the built CLI on mistyped options', () => {
  it.each([
    [['run', 'x', '--duraton', '5'], "Unknown option --duraton (did you mean --duration?); --help lists this command's options."],
    [['gpu', '--interval', '-5'], 'The option --interval takes a number of milliseconds above 0, like 1000; "-5" is not one.'],
    [
      ['run', '--duration', 'abc', '--cmd', 'llama-server'],
      'The option --duration takes a number of seconds above 0, like 60; "abc" is not one.',
    ],
    [['serve', '--port', '99999'], 'The option --port needs a port number, a whole number from 1 to 65535, got "99999".'],
  ])('llama-tray %j', async (args, sentence) => {
    const r = await runCli(['--home', home, ...args])
    expect(r.stderr).toBe(`llama-tray: ${sentence}\n`)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
  })
})

describe('every command names the option a typo meant (in-process)', () => {
  it.each([
    [['serve', '--prot', '8080'], '--port'],
    [['profiles', 'list', '--jsno'], '--json'],
    [['profiles', 'import', '--nmae', 'x', 'llama-server', '-m', 'a.gguf'], '--name'],
    [['models', 'list', '--models-dri', '/x'], '--models-dir'],
    [['engines', 'list', '--jsn'], '--json'],
    [['gpu', '--intervl', '2'], '--interval'],
    [['fit', 'x.gguf', '--vram', '4000'], '--vram-mib'],
    [['lint', '--cmd', 'llama-server', '--platfrom', 'linux'], '--platform'],
    [['bench', 'x', '--tokns', '5'], '--tokens'],
    [['compare', 'a', 'b', '--roundz', '2'], '--rounds'],
    [['tune', 'x', '--radus', '2'], '--radius'],
    [['settings', '--jsn'], '--json'],
    [['diagnostics', '--ot', 'x.zip'], '--out'],
  ])('llama-tray %j → %s', async (args, meant) => {
    const r = await runCliInProcess(['--home', home, ...args])
    expect(r.stderr).toMatch(new RegExp(`^llama-tray: Unknown option \\S+ \\(did you mean ${meant}\\?\\);[^\\n]*\\.\\n$`))
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
  })
})

describe('a mistyped command or subcommand gets the closest one (in-process)', () => {
  it.each([
    [['rn'], `Unknown command "rn" (did you mean run?); known: ${COMMANDS}.`],
    [
      ['profiles', 'lst'],
      'Unknown profiles command "lst" (did you mean list?); known: list, show, import, ' +
        'export, rm, use, pin, unpin, fix, set-model, set-draft, discover, create.',
    ],
    [
      ['engines', 'lst'],
      'Unknown engines command "lst" (did you mean list?); known: install, list, verify, update, remove, rollback, detect.',
    ],
    [['models', 'lst'], 'Models needs pull, list or recipe, got "lst" (did you mean list?).'],
    [
      ['settings', 'gte', 'port'],
      'Unknown settings action "gte" (did you mean get?); use llama-tray settings, settings get <key> or settings set <key> <value>.',
    ],
    [['settings', 'get', 'prot'], 'There is no setting "prot" (did you mean port?); llama-tray settings lists them.'],
  ])('llama-tray %j', async (args, sentence) => {
    const r = await runCliInProcess(['--home', home, ...args])
    expect(r.stderr).toBe(`llama-tray: ${sentence}\n`)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
  })
})
