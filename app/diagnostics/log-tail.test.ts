import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readLogTail } from './log-tail'

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'llama-tray-log-tail-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('readLogTail', () => {
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(40)}`)

  it('reads a small file whole', async () => {
    await writeFile(join(dir, 'small.log'), `${lines.slice(0, 3).join('\n')}\n`)
    const tail = await readLogTail(join(dir, 'small.log'), 4096, 100)
    expect(tail).toEqual({ lines: lines.slice(0, 3), sizeBytes: 3 * 50 + 3, truncated: false })
  })

  it('keeps only the last bytes, without the partial first line, and at most the last lines', async () => {
    const path = join(dir, 'big.log')
    await writeFile(path, `${lines.join('\n')}\n`)
    const byBytes = await readLogTail(path, 1000, 100)
    expect(byBytes.truncated).toBe(true)
    expect(byBytes.lines).toEqual(lines.slice(-byBytes.lines.length))
    expect(byBytes.lines.length).toBe(19) // 1000 bytes hold 19 whole lines of 51 bytes and part of one
    expect((await readLogTail(path, 1_000_000, 10)).lines).toEqual(lines.slice(-10))
  })

  it('reports a log it cannot read instead of failing (a folder in its place)', async () => {
    await mkdir(join(dir, 'folder.log'))
    const tail = await readLogTail(join(dir, 'folder.log'), 1000, 10)
    expect(tail).toEqual({ lines: [], sizeBytes: null, truncated: false, problem: 'folder.log is a folder, not a file: it was left out.' })
  })

  it('says there is no log yet', async () => {
    expect(await readLogTail(join(dir, 'missing.log'), 1000, 10)).toEqual({ lines: [], sizeBytes: null, truncated: false })
  })

  // Issue #42, findings 5 and 6: a log that was a link to /etc/shadow put the shadow file in the zip; a FIFO hung it.
  it.runIf(process.platform !== 'win32').each([
    ['a link to a secret', (p: string) => symlink('/etc/hostname', p), 'llama-server.log is a link, not a file: it was left out.'],
    [
      'a FIFO',
      async (p: string) => void execFileSync('mkfifo', [p]),
      'llama-server.log is a FIFO (a named pipe), not a file: it was left out.',
    ],
    ['a link to /dev/zero', (p: string) => symlink('/dev/zero', p), 'llama-server.log is a link, not a file: it was left out.'],
  ])('reads only a regular file: %s is left out, said in one sentence, without waiting', async (_name, make, problem) => {
    const sub = join(dir, `case-${Math.random().toString(36).slice(2)}`)
    await mkdir(sub)
    const path = join(sub, 'llama-server.log')
    await make(path)
    expect(await readLogTail(path, 1000, 10)).toEqual({ lines: [], sizeBytes: null, truncated: false, problem })
  })
})
