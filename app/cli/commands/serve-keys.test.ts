import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findFreePort } from '../../supervisor/free-port'
import { startCli } from '../../../test/helpers/cli'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-serve-keys-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

const keyFile = (name: string, text: string): string => {
  const path = join(home, name)
  writeFileSync(path, text, { mode: 0o600 })
  return path
}

/** Runs serve until it exits or says it listens (then stops it): what a weak key must never reach. */
async function serve(args: string[]): Promise<{ code: number | null; stderr: string; listened: boolean }> {
  const cli = startCli(['--home', home, 'serve', '--port', String(await findFreePort()), '--json', ...args])
  let listened = false
  const heard = new Promise<void>((resolve) => {
    cli.child.stdout?.on('data', () => {
      if (cli.stdoutLines.some((l) => l.includes('"listening"'))) resolve()
    })
  })
  await Promise.race([cli.done, heard.then(() => ((listened = true), cli.child.kill('SIGINT')))])
  const result = await cli.done
  return { code: result.code, stderr: result.stderr, listened }
}

describe('llama-tray serve --api-key-file: the key must be real (the built CLI)', () => {
  it.each([
    ['a key of 3 characters', 'abc\n', /key of 3 characters .*at least 8 characters/],
    ['only a comment line', '# put the key here\n', /no key in --api-key-file .*only blank or # lines/],
    ['only spaces', '      \n', /only of spaces/],
    // A device is refused unread (issue #42: /dev/zero was read for 600 MB before failing).
    ['/dev/null, a device', null, /key file --api-key-file \/dev\/null is a device, not a file/i],
  ])(
    'refuses a key file with %s, in one sentence, before it listens',
    async (_name, text, message) => {
      const file = text === null ? '/dev/null' : keyFile(`key-${Math.random().toString(36).slice(2)}.txt`, text)
      const result = await serve(['--host', '0.0.0.0', '--api-key-file', file])
      expect(result.listened).toBe(false)
      expect(result.code).toBe(2)
      const line = result.stderr.trim().replace(/^llama-tray: /, '')
      expect(line).toMatch(message)
      expect(line).toMatch(/^[A-Z][^\n]*\.$/)
    },
    60_000,
  )

  it('refuses a missing key file, naming the error', async () => {
    const result = await serve(['--api-key-file', join(home, 'missing.txt')])
    expect(result.listened).toBe(false)
    expect(result.stderr).toMatch(/Cannot read the key file --api-key-file .*missing\.txt \(ENOENT\)/)
  }, 60_000)
})
