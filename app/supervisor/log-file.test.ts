import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
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
})
