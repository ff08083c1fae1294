import { readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { startCli } from '../helpers/cli'
import { FAKE_SERVER } from '../helpers/paths'
import { waitUntil } from '../helpers/processes'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-flood-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** The process's peak resident set so far (the kernel's high-water mark), in MiB; null once it is gone. */
function peakRssMib(pid: number): number | null {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kib === undefined ? null : Number(kib) / 1024
  } catch {
    return null
  }
}

describe.runIf(process.platform === 'linux')('a server that floods its output (the built CLI, a stand-in server)', () => {
  it('keeps the CLI memory bounded, every log file within 5 MB × 3, cuts the 20 MB line, and run --duration returns', async () => {
    const cli = startCli(['--home', home, 'run', '--cmd', formatCommandLine([FAKE_SERVER, '--fake-mode', 'flood']), '--duration', '12'])
    const pid = cli.child.pid as number
    let peak = 0
    const sampler = setInterval(() => (peak = Math.max(peak, peakRssMib(pid) ?? 0)), 100)
    // The flood's first long line: from there on every kind of output has been met.
    await waitUntil(() => cli.stdoutLines.some((l) => /ready/i.test(l)), 60_000, 'the stand-in to be ready')
    const result = await cli.done
    clearInterval(sampler)
    const logs = readdirSync(join(home, 'logs'))
    const sizes = Object.fromEntries(logs.map((f) => [f, statSync(join(home, 'logs', f)).size]))
    const largest = Math.max(...Object.values(sizes))
    console.log(`flood: peak RSS of the CLI ${peak.toFixed(0)} MiB, log files ${JSON.stringify(sizes)}, largest ${largest} bytes`)
    expect(result.code, result.stderr).toBe(0)
    expect(largest).toBeLessThanOrEqual(5 * 1024 * 1024)
    expect(logs.filter((f) => f.startsWith('llama-server.log')).sort()).toEqual(
      ['llama-server.log', 'llama-server.log.1', 'llama-server.log.2', 'llama-server.log.3'].slice(0, logs.length),
    )
    const all = logs.map((f) => readFileSync(join(home, 'logs', f), 'utf8')).join('\n')
    expect(all).toContain('… [line cut]')
    // Unbounded it passed 1 GB in 12 s; bounded it stays near the CLI's own size (about 100 MiB).
    expect(peak).toBeLessThan(400)
  }, 180_000)
})
