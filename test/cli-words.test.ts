import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli'
import { model } from './helpers/paths'

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
    // Four at a time: each is a node process, and the machine is shared.
    for (let i = 0; i < BAD_INPUT.length; i += 4) {
      const batch = BAD_INPUT.slice(i, i + 4)
      const results = await Promise.all(batch.map((args) => runCli(['--home', home, ...args])))
      results.forEach((r, j) => {
        const first = r.stderr.split('\n')[0] ?? ''
        if (r.code !== 2 || !SENTENCE.test(first)) wrong.push(`${JSON.stringify(batch[j])} → exit ${r.code}: ${first}`)
      })
    }
    expect(wrong).toEqual([])
  }, 300_000)
})
