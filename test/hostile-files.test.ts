import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readKeyFile } from '../app/supervisor/api-key-rules'
import { runCliInProcess } from './helpers/cli-in-process'

// Issue #42, findings 5 and 10: a FIFO where profiles.json, settings.json or a key file should be hung the CLI with
// no message; /dev/zero was read for 600 MB; a 67 MB profiles.json took 36 s and 990 MB to list.
const scratch = mkdtempSync(join(tmpdir(), 'llama-tray-files-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let n = 0
const freshHome = (): string => {
  const home = join(scratch, `home-${n++}`)
  mkdirSync(home)
  return home
}

const PLACES: ReadonlyArray<readonly [string, string, readonly string[], RegExp]> = [
  ['profiles.json', 'profiles.json', ['profiles', 'list'], /profiles/],
  ['settings.json', 'settings.json', ['settings', 'get'], /settings/],
]
const KINDS: ReadonlyArray<readonly [string, (path: string) => void, RegExp]> = [
  ['a FIFO', (p) => execFileSync('mkfifo', [p]), /is a FIFO \(a named pipe\), not a file/],
  ['a link to /dev/zero', (p) => symlinkSync('/dev/zero', p), /is a link out of its folder/],
  ['a link out of the home', (p) => symlinkSync('/etc/hostname', p), /is a link out of its folder/],
  ['a 67 MB file', (p) => writeFileSync(p, Buffer.alloc(67 * 1024 * 1024, ' ')), /is 67 MB, more than the 4 MB it may be/],
]

describe.runIf(process.platform === 'linux')('files are what they claim', () => {
  for (const [file, , command] of PLACES) {
    for (const [kind, make, message] of KINDS) {
      it(`${command.join(' ')} with ${file} as ${kind}: one sentence naming the file, at once`, async () => {
        const home = freshHome()
        make(join(home, file))
        const r = await runCliInProcess(['--home', home, ...command])
        expect(r.code).not.toBe(0)
        expect(r.stderr).toMatch(message)
        expect(r.stderr).toContain(file)
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
      })
    }
  }

  it.each([
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p]), /is a FIFO \(a named pipe\), not a file/],
    ['/dev/zero', () => undefined, /is a device, not a file/],
    ['a 1 MB file', (p: string) => writeFileSync(p, Buffer.alloc(1024 * 1024, 'k')), /is 1 MB, more than the 16 KB it may be/],
  ])('a key file that is %s is refused unread, naming it', async (kind, make, message) => {
    const path = kind === '/dev/zero' ? '/dev/zero' : join(scratch, `key-${n++}`)
    make(path)
    const read = await readKeyFile(path)
    expect(read.ok).toBe(false)
    expect(read.ok ? '' : read.problem.reason).toMatch(message)
    expect(read.ok ? '' : read.problem.reason).toContain(path)
  })
})
