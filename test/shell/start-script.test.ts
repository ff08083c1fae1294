import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/paths'
// @ts-expect-error -- a plain .mjs script without types
import { findElectronBinary, MISSING_ELECTRON_SENTENCE } from '../../scripts/electron-binary.mjs'

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

function runStart(env: NodeJS.ProcessEnv): Promise<Run> {
  const script = join(REPO_ROOT, 'scripts', 'start.mjs')
  const child = spawn(process.execPath, [script], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

describe('npm start (scripts/start.mjs) without Electron’s binary', () => {
  it('says in one sentence why the app cannot start and what to do, instead of "Error: Electron uninstall"', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'llama-tray-no-electron-'))
    try {
      // An override folder with no binary in it: the same state as a skipped download, on any machine.
      const r = await runStart({ ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ELECTRON_OVERRIDE_DIST_PATH: empty })
      expect(r.code).toBe(1)
      const [sentence, detail, ...rest] = r.stderr.split('\n')
      expect(sentence).toBe(MISSING_ELECTRON_SENTENCE)
      expect(sentence).toMatch(/^[A-Z].*\.$/)
      expect(sentence).toContain('node node_modules/electron/install.js')
      expect(sentence).toContain('node out/cli/llama-tray.mjs')
      expect(detail).toBe(`(looked for ${join(empty, 'electron')})`)
      expect(rest).toEqual([''])
      expect(r.stderr + r.stdout).not.toContain('Electron uninstall')
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })

  it('finds the binary where Electron itself would look (ELECTRON_OVERRIDE_DIST_PATH here)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'llama-tray-electron-'))
    try {
      const binary = join(dir, 'electron')
      writeFileSync(binary, '#!/bin/sh\n')
      chmodSync(binary, 0o755)
      expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: dir })).toEqual({ path: binary })
      rmSync(binary)
      expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: dir })).toEqual({ missing: binary })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
