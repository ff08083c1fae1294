import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readProcessIdentity, sameProcess } from './process-identity'

describe('sameProcess: one process across an exec, never a reused pid', () => {
  it('matches on the start token even when the name changed (a wrapper script read before its exec)', () => {
    expect(sameProcess({ name: 'env', startToken: '4711' }, { name: 'node', startToken: '4711' })).toBe(true)
    expect(sameProcess({ name: 'llama-server', startToken: '4711' }, { name: 'llama-server', startToken: '4712' })).toBe(false)
  })

  it.runIf(process.platform === 'linux')('follows a real script through its exec (Linux: /proc starttime)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'identity-'))
    const script = join(dir, 'wrapper-server')
    writeFileSync(script, '#!/bin/sh\nexec sleep 30\n')
    chmodSync(script, 0o755)
    const child = spawn(script, [], { stdio: 'ignore' })
    try {
      const atSpawn = await readProcessIdentity(child.pid as number)
      // Wait for the exec, not for the clock: the name becomes sleep's.
      let later = await readProcessIdentity(child.pid as number)
      while (later?.name !== 'sleep') later = await readProcessIdentity(child.pid as number)
      expect(atSpawn && sameProcess(atSpawn, later)).toBe(true)
    } finally {
      child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
