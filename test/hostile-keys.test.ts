import { EventEmitter } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { installLastResort } from '../app/cli/last-resort'
import { resolveApiKey } from '../app/metrics/api-key'
import { keyProblem } from '../app/supervisor/api-key-rules'
import { preflight } from '../app/supervisor/preflight'
import { runCliInProcess } from './helpers/cli-in-process'
import { FAKE_SERVER, model } from './helpers/paths'

// Issue #42, finding 2: an --api-key with a line break was stored, put on llama-server's command line, and then
// killed the CLI with ERR_INVALID_CHAR and a stack trace when it went into an Authorization header.
const scratch = mkdtempSync(join(tmpdir(), 'llama-tray-keys-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const BROKEN = 'longgoodkey123\nab'

describe('keys are single-line or refused', () => {
  it.each([
    ['a line break', BROKEN, /holds a line break/],
    ['a carriage return', 'longgoodkey123\rab', /holds a line break/],
    ['a control character', 'longgoodkey\u0001123', /holds a control character/],
    ['a character that is not ASCII', 'longgoodkey123é', /not ASCII/],
  ])('a key with %s is a problem wherever it is checked', (_name, key, message) => {
    expect(keyProblem(key, '--api-key')?.reason).toMatch(message)
  })

  it('profiles import refuses the key in one sentence and stores nothing', async () => {
    const home = join(scratch, 'import')
    const r = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--force',
      'llama-server',
      '-m',
      model('tiny-target.gguf'),
      '--api-key',
      BROKEN,
    ])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/^llama-tray: The profile was not saved: the key in --api-key holds a line break[^\n]*\.\n$/)
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/)
    expect(() => readFileSync(join(home, 'profiles.json'))).toThrow()
  })

  it.each([
    ['starts with #', 'good-key-1234,#hash-key-1234', /starts with #, read as a comment in llama-server's key file/],
    ['holds a quote', '"quoted,key-1234"', /holds a quote, which llama-server versions read differently/],
  ])('a key that %s (the key file cannot carry it) is refused at import in one sentence', async (_what, key, message) => {
    const home = join(scratch, `import-${key.length}`)
    const r = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--force',
      'llama-server',
      '-m',
      model('tiny-target.gguf'),
      '--api-key',
      key,
    ])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(() => readFileSync(join(home, 'profiles.json'))).toThrow()
  })

  it('a start with such a key is refused before spawning, on loopback too (it would stay on the command line)', async () => {
    const checked = await preflight({ exe: FAKE_SERVER, args: ['--host', '127.0.0.1', '--api-key', BROKEN] })
    expect(checked).toMatchObject({ ok: false, failure: { kind: 'flag-value', reason: expect.stringMatching(/line break/) } })
    const fromEnv = await preflight({ exe: FAKE_SERVER, args: [], env: { LLAMA_API_KEY: BROKEN } })
    expect(fromEnv).toMatchObject({ ok: false, failure: { reason: expect.stringMatching(/LLAMA_API_KEY holds a line break/) } })
  })

  it('a key file whose key no header can carry is an error with a sentence, never a header', async () => {
    const file = join(scratch, 'key.txt')
    writeFileSync(file, 'longgoodkey\u0007123\n')
    await expect(resolveApiKey(['--api-key-file', file])).rejects.toThrow(/holds a control character, which no client can send/)
    writeFileSync(file, 'longgoodkey123\n')
    await expect(resolveApiKey(['--api-key-file', file])).resolves.toBe('longgoodkey123')
  })

  it('the last-resort handler says one sentence once, keeps the stack in the CLI log, and lets the process run on', () => {
    const home = join(scratch, 'last-resort')
    const proc = new EventEmitter()
    const stderr = new PassThrough()
    let said = ''
    stderr.setEncoding('utf8').on('data', (c: string) => (said += c))
    installLastResort(proc as unknown as NodeJS.Process, stderr, () => home)
    const err = new TypeError('Invalid character in header content ["authorization"]')
    proc.emit('uncaughtException', err)
    proc.emit('uncaughtException', err)
    proc.emit('unhandledRejection', new Error('second'))
    const lines = said.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /^llama-tray: an unexpected error was caught \(Invalid character in header content \["authorization"\]\); it keeps running/,
    )
    expect(said).not.toMatch(/\n\s+at /)
    expect(readFileSync(join(home, 'logs', 'llama-tray-cli.log'), 'utf8')).toMatch(/TypeError: Invalid character[^\n]*\n\s+at /)
  })
})
