import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-port-env-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('the built CLI and $LLAMA_TRAY_PORT', () => {
  it.each(['abc', '70000', '1e3'])('refuses LLAMA_TRAY_PORT=%s with one line naming the variable and the range', async (raw) => {
    const result = await runCli(['--home', home, 'profiles', 'list'], { LLAMA_TRAY_PORT: raw })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `llama-tray: LLAMA_TRAY_PORT is "${raw}", which is not a port: set it to a whole number from 0 (any free port) to 65535, or ` +
        `unset it.\n`,
    )
  })

  it('refuses serve --port 1e3 instead of listening on 1000', async () => {
    const result = await runCli(['--home', home, 'serve', '--port', '1e3'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('llama-tray: --port needs a port number, a whole number from 1 to 65535, got "1e3".\n')
  })
})
