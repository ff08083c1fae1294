import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CUT_MARK } from '../lib/line-splitter'
import { RotatingLogFile } from './log-file'

describe('RotatingLogFile', () => {
  it('writes lines in batches and rotates at the size limit, keeping N files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logs-'))
    const path = join(dir, 'sub', 'server.log')
    const log = new RotatingLogFile(path, { maxBytes: 100, keep: 2, flushIntervalMs: 5 })
    for (let i = 0; i < 40; i++) {
      log.append(`line ${String(i).padStart(2, '0')} ${'x'.repeat(20)}`)
      if (i % 4 === 3) await log.flush()
    }
    await log.flush()
    expect(readFileSync(path, 'utf8')).toMatch(/line 39/)
    expect(existsSync(`${path}.1`)).toBe(true)
    expect(existsSync(`${path}.2`)).toBe(true)
    expect(existsSync(`${path}.3`)).toBe(false)
    expect(readFileSync(path).length).toBeLessThanOrEqual(200)
  })

  it('reports a write error once and never throws', async () => {
    const errors: Error[] = []
    // A regular file where the log folder should be: mkdir fails with ENOTDIR.
    const file = join(mkdtempSync(join(tmpdir(), 'logs-')), 'a-file')
    writeFileSync(file, '')
    const log = new RotatingLogFile(join(file, 'sub', 'server.log'), undefined, (e) => errors.push(e))
    log.append('a')
    await log.flush()
    log.append('b')
    await log.flush()
    expect(errors).toHaveLength(1)
  })

  it('holds its limit whatever the line lengths: no file passes maxBytes, over-long lines are cut and marked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logs-'))
    const path = join(dir, 'server.log')
    const log = new RotatingLogFile(path, { maxBytes: 64 * 1024, keep: 3, flushIntervalMs: 5, maxBufferedBytes: 1024 * 1024 })
    for (let i = 0; i < 200; i++) {
      log.append(`${i} ${'y'.repeat(i % 7 === 0 ? 3_000_000 : 1000 + i * 37)}`)
      if (i % 10 === 9) await log.flush()
    }
    await log.flush()
    for (const f of [path, `${path}.1`, `${path}.2`, `${path}.3`]) expect(statSync(f).size).toBeLessThanOrEqual(64 * 1024)
    expect(existsSync(`${path}.4`)).toBe(false)
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
    expect(lines.at(-1)).toMatch(/^199 y+$/)
    expect(readFileSync(`${path}.1`, 'utf8')).toContain(CUT_MARK)
  })

  it('a flood faster than the disk: at most maxBufferedBytes wait, the rest is dropped and counted in a line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logs-'))
    const path = join(dir, 'server.log')
    const log = new RotatingLogFile(path, { maxBytes: 5 * 1024 * 1024, keep: 3, flushIntervalMs: 250, maxBufferedBytes: 256 * 1024 })
    const line = 'z'.repeat(1023)
    // 64 MiB handed over in one synchronous burst: the disk cannot take any of it before the burst ends.
    for (let i = 0; i < 65536; i++) log.append(line)
    const internal = log as unknown as { bufferedBytes: number; writingBytes: number }
    expect(internal.bufferedBytes + internal.writingBytes).toBeLessThanOrEqual(256 * 1024)
    await log.flush()
    const text = readFileSync(path, 'utf8')
    const mark = /\[llama-tray\] (\d+) lines dropped: llama-server wrote faster than its log could be written/.exec(text)
    expect(mark).not.toBeNull()
    const kept = text.split('\n').filter((l) => l === line).length
    expect(kept + Number(mark?.[1])).toBe(65536)
    expect(statSync(path).size).toBeLessThanOrEqual(256 * 1024 + 200)
  })

  it.each([
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p]), /llama-server\.log is a FIFO, not a file/],
    ['a link out of the home', (p: string) => symlinkSync('/etc/hostname', p), /llama-server\.log is a link, not a file/],
    ['a folder', (p: string) => mkdirSync(p), /llama-server\.log is a folder, not a file/],
  ])('a log that is %s is refused in one sentence, without waiting or writing through it', async (_name, make, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'logs-'))
    const path = join(dir, 'llama-server.log')
    make(path)
    const errors: Error[] = []
    const log = new RotatingLogFile(path, undefined, (e) => errors.push(e))
    log.append('a line')
    await log.flush()
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(message)])
  })
})
