import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCli, type CliResult } from './helpers/cli'
import { runCliInProcess } from './helpers/cli-in-process'
import { model } from './helpers/paths'

/**
 * Every eighth case goes through the built bin, the others through its entry in-process: the same words and exit
 * code, a process less each (the bin's own share: its exit code, its streams, Ctrl+C in the serve case below).
 */
const cliFor = (i: number): ((args: string[]) => Promise<CliResult>) => (i % 8 === 0 ? runCli : runCliInProcess)

/** One sentence after the program's name: a capital letter first, a full stop (or ! ?) last, maybe inside a quote or bracket. */
const SENTENCE = /^llama-tray: [A-Z].*[.!?]["”')]?$/

/**
 * The CLI's refusals of bad input (the cases of the other CLI tests and every command's own usage checks): none
 * may reach the network or start a server; each is refused before that.
 */
const BAD_INPUT: readonly (readonly string[])[] = [
  ['nope'],
  ['--home'],
  ['help', 'nope'],
  ['run'],
  ['run', 'a', 'b'],
  ['run', 'x', '--duraton', '5'],
  ['run', '--cmd', ''],
  ['run', '--cmd', '"unbalanced'],
  ['run', 'nope'],
  ['run', 'alpha', '--cmd', 'x'],
  ['gpu', '--interval', '-5'],
  ['gpu', '--interval'],
  ['gpu', '--json=yes'],
  ['gpu', '--backend', 'x'],
  ['serve', 'a', 'b'],
  ['serve', '--port', '1e3'],
  ['serve', '--api-key-file', '/nonexistent/key.txt'],
  ['profiles', 'nope'],
  ['profiles', 'show'],
  ['profiles', 'show', 'nope'],
  ['profiles', 'fix'],
  ['profiles', 'use'],
  ['profiles', 'use', 'nope'],
  ['profiles', 'rm', 'nope'],
  ['profiles', 'import'],
  ['profiles', 'import', '--file', '/nonexistent/command.txt'],
  ['profiles', 'import', 'ollama', 'run', 'qwen3:30b'],
  ['profiles', 'import', 'llama-server', '-m', '/nonexistent/model.gguf'],
  ['profiles', 'export', 'alpha', '--format', 'x'],
  ['profiles', 'create', '--binary', 'b1'],
  ['bench'],
  ['bench', 'nope'],
  ['compare', 'alpha'],
  ['tune'],
  ['tune', 'alpha', '--headroom-mib', '-1'],
  ['fit'],
  ['fit', 'x.gguf', '--gpu', 'x'],
  ['fit', 'x.gguf', '--vram-mib', '1000', '--gpu', 'auto'],
  ['fit', 'x.gguf', '--headroom-mib', '-1'],
  ['fit', '/nonexistent/model.gguf'],
  ['lint'],
  ['lint', 'nope'],
  ['lint', '--cmd', 'llama-server -m x.gguf', '--platform', 'beos'],
  ['models'],
  ['models', 'nope'],
  ['models', 'pull'],
  ['models', 'recipe', 'nope'],
  ['engines', 'remove'],
  ['engines', 'verify', 'a', 'b'],
  ['engines', 'rollback'],
  ['settings', 'nope'],
  ['settings', 'get', 'a', 'b'],
  ['settings', 'get', 'nope'],
  ['settings', 'set', 'port', '70000'],
  ['diagnostics', '--nope'],
]

describe('the CLI refuses bad input in one sentence', () => {
  let home: string
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-words-'))
    const imported = await runCli([
      '--home',
      home,
      'profiles',
      'import',
      '--name',
      'alpha',
      '--force',
      'llama-server',
      '-m',
      model('tiny-target.gguf'),
    ])
    expect(imported.code, imported.stderr).toBe(0)
  }, 60_000)
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it("each refusal: exit 2, nothing on stdout, stderr's first line a sentence with a capital and a full stop", async () => {
    const wrong: string[] = []
    for (const [i, args] of BAD_INPUT.entries()) {
      const r = await cliFor(i)(['--home', home, ...args])
      const first = r.stderr.split('\n')[0] ?? ''
      if (r.code !== 2 || !SENTENCE.test(first)) wrong.push(`${JSON.stringify(args)} → exit ${r.code}: ${first}`)
    }
    expect(wrong).toEqual([])
  }, 300_000)
})

/**
 * The normal output (issue #25: "imported … 32 arguments" was not a sentence): for each case, every line of
 * stdout and stderr that is not indented (indented lines are a listing's details) starts with a capital, or with
 * a path; in the "sentences" cases every such line is a whole sentence. "llama-tray: " is the program's name.
 */
const NORMAL_OUTPUT: readonly { readonly args: readonly string[]; readonly lines: 'sentences' | 'capital' }[] = [
  { args: ['profiles', 'import', '--name', 'beta', '--force', 'llama-server', '-m', model('tiny-target.gguf')], lines: 'sentences' },
  {
    args: ['profiles', 'import', '--name', 'beta', '--replace', '--force', 'llama-server', '-m', model('tiny-draft.gguf')],
    lines: 'sentences',
  },
  { args: ['profiles', 'use', 'beta'], lines: 'sentences' },
  { args: ['profiles', 'rm', 'beta'], lines: 'sentences' },
  { args: ['profiles', 'discover', '--models-dir', '/nonexistent/models'], lines: 'sentences' },
  { args: ['lint', '--cmd', `llama-server -m ${model('tiny-target.gguf')}`], lines: 'sentences' },
  { args: ['settings', 'set', 'port', '18200'], lines: 'sentences' },
  { args: ['engines', 'list'], lines: 'sentences' },
  { args: ['engines', 'verify'], lines: 'sentences' },
  { args: ['fit', model('tiny-target.gguf')], lines: 'capital' },
  { args: ['fit', model('tiny-target.gguf'), '--vram-mib', '4000'], lines: 'capital' },
  { args: ['profiles', 'discover', '--models-dir', join(model('tiny-target.gguf'), '..')], lines: 'capital' },
]

/** The lines a person reads as prose: not indented, not empty, without the program's name. */
const proseLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^\s/.test(l))
    .map((l) => l.replace(/^llama-tray: /, ''))

/** Capital first (or a path); a sentence also ends with a full stop, "!" or "?", maybe inside a quote or bracket. */
const CAPITAL = /^(?:[A-Z0-9]|\/)/
const WHOLE = /^(?:[A-Z0-9]|\/).*[.!?]["”')]?$/

describe('the CLI says its normal output in sentences', () => {
  let home: string
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-words-ok-'))
  })
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it('each case: exit 0, and every line a person reads starts with a capital (and is a whole sentence where it says one)', async () => {
    const wrong: string[] = []
    for (const [i, { args, lines }] of NORMAL_OUTPUT.entries()) {
      // One at a time: the cases build on each other (import, replace, use, rm).
      const r = await cliFor(i)(['--home', home, ...args])
      if (r.code !== 0) wrong.push(`${JSON.stringify(args)} → exit ${r.code}: ${r.stderr.split('\n')[0]}`)
      for (const line of proseLines(r.stdout + r.stderr))
        if (!(lines === 'sentences' ? WHOLE : CAPITAL).test(line)) wrong.push(`${JSON.stringify(args)}: ${line}`)
    }
    expect(wrong).toEqual([])
  }, 300_000)

  it('serve: the listening line is a sentence, and it stops on Ctrl+C', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address()
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
      })
    })
    const serve = startCli(['--home', home, 'serve', '--port', String(port)])
    let stderr = ''
    serve.child.stderr?.on('data', (c: Buffer | string) => (stderr += String(c)))
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (stderr.includes('\n')) resolve()
      }
      serve.child.stderr?.on('data', check)
      serve.child.on('close', () => resolve())
    })
    serve.child.kill('SIGINT')
    const result = await serve.done
    expect(result.code, result.stderr).toBe(0)
    const lines = proseLines(result.stderr)
    expect(lines[0]).toContain(`http://127.0.0.1:${port}/v1`)
    for (const line of lines) expect(line).toMatch(WHOLE)
  }, 60_000)
})
