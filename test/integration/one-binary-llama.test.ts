import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'
import { snapshotSchema } from '../helpers/snapshot-schema'

// llama.cpp's one-binary install: `llama serve …` is llama-server. A stand-in `llama` that runs the test
// llama-server for `serve` (and refuses anything else, as the real one would not serve) through the built CLI.
let bin: string
const dir = mkdtempSync(join(tmpdir(), 'llama-tray-one-binary-'))
const home = join(dir, 'home')
const llama = join(dir, 'llama')

beforeAll(() => {
  bin = llamaServerBin()
  writeFileSync(llama, `#!/bin/sh\nif [ "$1" = serve ]; then shift; exec '${bin}' "$@"; fi\necho "llama: unknown command $1" >&2\nexit 2\n`)
  chmodSync(llama, 0o755)
}, 900_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('llama serve (the one-binary llama.cpp)', () => {
  it('imports, lints clean through `llama serve --help`, runs to ready and exports as llama serve …', async () => {
    const imported = await runCli([
      '--home',
      home,
      'profiles',
      'import',
      '--name',
      'one',
      '--',
      llama,
      'serve',
      '-m',
      model('tiny-target.gguf'),
      '-c',
      '512',
      '-np',
      '1',
      '-t',
      '1',
    ])
    expect(imported.code, imported.stderr).toBe(0)

    const lint = await runCli(['--home', home, 'lint', 'one', '--json'])
    expect(lint.stdout, lint.stderr).not.toMatch(/flag-rejected|not a llama-server/)
    expect(lint.code, lint.stdout + lint.stderr).toBe(0)
    // Its fork and flags came from `llama serve --version` and `llama serve --help`.
    expect(JSON.parse(lint.stdout)).toMatchObject({ fork: 'mainline' })

    const exported = await runCli(['--home', home, 'profiles', 'export', 'one', '--format', 'bash'])
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout.trim()).toMatch(new RegExp(`^'?${llama.replace(/[/.]/g, '\\$&')}'? serve -m `))

    const cli = startCli(['--home', home, 'run', 'one', '--json', '--interval', '200'])
    await waitUntil(() => cli.stdoutLines.some((l) => l.includes('"state":"ready"')), 120_000, 'llama serve to be ready')
    const ready = snapshotSchema.parse(JSON.parse(cli.stdoutLines.find((l) => l.includes('"state":"ready"')) as string)).server
    cli.child.kill('SIGTERM')
    expect((await cli.done).code).toBe(0)
    expect(isRunning(ready.pid as number)).toBe(false)
  }, 240_000)

  it('refuses `llama` without serve, saying to add it', async () => {
    const refused = await runCli(['--home', home, 'profiles', 'import', '--', llama, '-m', model('tiny-target.gguf')])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/"llama" runs llama-server only as "llama serve": add serve after it/)
  })
})
