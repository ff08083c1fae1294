import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempFileWriter, writeFileAtomic } from './atomic-write'

const folders: string[] = []
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true })
})

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'))
    folders.push(dir)
    const path = join(dir, 'state.json')
    await writeFileAtomic(path, 'old\n')
    await writeFileAtomic(path, 'new\n')
    expect(readFileSync(path, 'utf8')).toBe('new\n')
    expect(readdirSync(dir)).toEqual(['state.json'])
  })

  // Two callers of one process writing the same file at once (the dashboard's
  // update check ran twice when React mounted the section twice): each write
  // succeeds and the file is one of them whole, never a mix or a failed rename.
  it('concurrent writes of the same file from one process all succeed and leave one whole version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'))
    folders.push(dir)
    const path = join(dir, 'state.json')
    const versions = Array.from({ length: 20 }, (_, i) => `${JSON.stringify({ writer: i, pad: 'x'.repeat(4096 * (i + 1)) })}\n`)
    const results = await Promise.allSettled(versions.map((v) => writeFileAtomic(path, v)))
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    expect(versions).toContain(readFileSync(path, 'utf8'))
    expect(readdirSync(dir)).toEqual(['state.json'])
  })
})

describe('tempFileWriter', () => {
  it('reads the writer pid from a temp file of the target, and nothing from other names', () => {
    expect(tempFileWriter('profiles.json.4242.7.tmp', 'profiles.json')).toBe(4242)
    expect(tempFileWriter('profiles.json.bak.4242.1.tmp', 'profiles.json.bak')).toBe(4242)
    expect(tempFileWriter('profiles.json.bak.4242.1.tmp', 'profiles.json')).toBeNull()
    expect(tempFileWriter('profiles.json', 'profiles.json')).toBeNull()
    expect(tempFileWriter('other.json.4242.1.tmp', 'profiles.json')).toBeNull()
  })
})
