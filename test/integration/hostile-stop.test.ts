import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { runCli } from '../helpers/cli'
import { FAKE_SERVER } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'

// Issue #42, finding 4: a stand-in server whose child leaves the process group (setsid) and keeps the inherited
// pipes: `run --duration 4` printed STOPPED and never exited.
const home = mkdtempSync(join(tmpdir(), 'llama-tray-escape-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe.runIf(process.platform === 'linux')('stops always end (the built CLI, a stand-in server)', () => {
  it('run --duration returns, and the grandchild in its own session holding the pipes is ended', async () => {
    const result = await runCli([
      '--home',
      home,
      'run',
      '--cmd',
      formatCommandLine([FAKE_SERVER, '--fake-mode', 'setsid-grandchild']),
      '--duration',
      '4',
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/STOPPED/)
    const log = readFileSync(join(home, 'logs', 'llama-server.log'), 'utf8')
    const grandchild = Number(/fake: grandchild pid (\d+) in its own session/.exec(log)?.[1])
    expect(grandchild).toBeGreaterThan(0)
    expect(log).toContain(`ended pid ${grandchild}, started by llama-server and still holding its output`)
    // SIGKILL is sent before the stop returns; init reaps it a moment later.
    await waitUntil(() => !isRunning(grandchild), 30_000, 'the grandchild to be gone')
  }, 120_000)
})
