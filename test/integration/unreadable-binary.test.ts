import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { assertCliBuilt } from '../helpers/cli'
import { CLI, FAKE_SERVER, model } from '../helpers/paths'

// Issue #42 (Low): "binary not found" for a binary that exists but cannot be read (a folder on its path this user may
// not enter). The built CLI runs as another user (nobody) when the tests run as root, since root may enter any folder.
const scratch = mkdtempSync(join(tmpdir(), 'llama-tray-unreadable-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('a llama-server that is there but cannot be read', () => {
  it('is said to be unreadable (permission denied), not missing', () => {
    assertCliBuilt()
    chmodSync(scratch, 0o755)
    const locked = join(scratch, 'locked')
    mkdirSync(locked)
    const bin = join(locked, 'llama-server')
    copyFileSync(FAKE_SERVER, bin)
    chmodSync(bin, 0o755)
    chmodSync(locked, 0o700) // only its owner may enter it
    const home = join(scratch, 'home')
    mkdirSync(home, { mode: 0o777 })
    chmodSync(home, 0o777)
    const asRoot = process.getuid?.() === 0
    if (!asRoot) chmodSync(locked, 0o000) // then this user is the one kept out
    try {
      const r = spawnSync(process.execPath, [CLI, '--home', home, 'run', '--cmd', `${bin} -m ${model('tiny-target.gguf')}`], {
        encoding: 'utf8',
        env: { ...process.env, LLAMA_TRAY_HOME: home },
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      })
      expect(r.stderr).toMatch(/^llama-tray: Llama-server at \S+ cannot be read by this user \(permission denied\)/)
      expect(r.stderr).not.toMatch(/not found/)
      expect(r.status).not.toBe(0)
    } finally {
      chmodSync(locked, 0o700)
    }
  })
})
