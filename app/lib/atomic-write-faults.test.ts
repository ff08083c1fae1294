import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { writeFileAtomic } from './atomic-write'

// Issue #42, finding 9: after ENOSPC, 0-byte *.tmp files stayed for good. A real full disk where root may mount a
// small tmpfs; elsewhere the same errno injected into the temp file's write (the test says which ran).
const scratch = mkdtempSync(join(tmpdir(), 'llama-tray-full-'))
const mountPoint = join(scratch, 'full')
mkdirSync(mountPoint)
let mounted = false
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], { stdio: 'ignore' })
  mounted = true
} catch {
  mounted = false
}
afterAll(() => {
  if (mounted) execFileSync('umount', [mountPoint])
  rmSync(scratch, { recursive: true, force: true })
})

describe('writeFileAtomic on a full disk', () => {
  it(`fails with ENOSPC, keeps the old file whole and leaves no temp file (${mounted ? 'a 64 KiB tmpfs' : 'ENOSPC injected'})`, async () => {
    const folder = mounted ? mountPoint : join(scratch, 'injected')
    mkdirSync(folder, { recursive: true })
    const file = join(folder, 'profiles.json')
    writeFileSync(file, '{"old":true}\n')
    const full: typeof open = mounted
      ? open
      : ((async (...args: Parameters<typeof open>) => {
          const handle = await open(...args)
          handle.writeFile = () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
          return handle
        }) as typeof open)
    console.log(`atomic write on a full disk: ${mounted ? 'a real 64 KiB tmpfs' : 'ENOSPC injected (mount not allowed here)'}`)
    await expect(writeFileAtomic(file, 'x'.repeat(1024 * 1024), full)).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(readFileSync(file, 'utf8')).toBe('{"old":true}\n')
    expect(readdirSync(folder).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
})
