import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { LaunchSpec } from '../../app/contract/commands'
import { CUT_MARK } from '../../app/lib/line-splitter'
import { probeHealth } from '../../app/supervisor/health'
import { PidFiles, type PidRecord } from '../../app/supervisor/pid-file'
import { FAKE_SERVER } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'
import { SupervisorHarness } from '../helpers/supervisor-harness'
import { runningProcess } from '../helpers/server-status'

// Faults the real llama-server cannot produce on demand, played by
// test/fixtures/fake-llama-server.mjs (a real process, real HTTP, real signals).
const harnesses: SupervisorHarness[] = []
function harness(options: ConstructorParameters<typeof SupervisorHarness>[0] = {}): SupervisorHarness {
  const h = new SupervisorHarness(options)
  harnesses.push(h)
  return h
}
const fake = (...args: string[]): LaunchSpec => ({ profileId: 'fake', exe: FAKE_SERVER, args })

afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.dispose()
    expect(h.pids.alive()).toEqual([])
  }
})

/** Pid files on a disk so busy that a write waits until the test lets it finish. */
class SlowDiskPidFiles extends PidFiles {
  private release: () => void = () => {}
  private readonly gate = new Promise<void>((r) => (this.release = r))
  writes = 0
  override async write(record: PidRecord): Promise<void> {
    this.writes++
    await this.gate
    await super.write(record)
  }
  finish(): void {
    this.release()
  }
}

describe('supervisor faults (fake server)', () => {
  it('a slow disk: "ready" waits for the pid file, so a crash of ours after ready can always be recovered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llama-tray-slow-disk-'))
    const pidFiles = new SlowDiskPidFiles(dir)
    const h = harness({ pidFiles })
    const started = h.supervisor.start(fake())
    try {
      await waitUntil(() => pidFiles.writes === 1 && h.supervisor.getStatus().port !== null, 30_000, 'the pid file write to begin')
      const port = runningProcess(h.supervisor.getStatus()).port
      while ((await probeHealth('127.0.0.1', port, 1000)).kind !== 'ready') await new Promise((r) => setTimeout(r, 20))
      // The server is ready, the record is not on disk yet: give the supervisor many health probes (20 ms apart).
      await new Promise((r) => setTimeout(r, 500))
      expect(h.supervisor.getStatus().state).not.toBe('ready')
      expect(readdirSync(dir)).toEqual([])
    } finally {
      pidFiles.finish() // a failed assertion must not leave the stop waiting for the write
    }
    let fileAtReady: boolean | null = null
    const off = h.supervisor.on('state', (s) => {
      if (s.state === 'ready') fileAtReady = readdirSync(dir).some((f) => f.startsWith('llama-server.'))
    })
    expect((await started).state).toBe('ready')
    off()
    expect(fileAtReady).toBe(true)
    expect(existsSync(join(dir, `llama-server.${process.pid}.json`))).toBe(true)
    await h.supervisor.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a server that never becomes ready is killed at the deadline and reported', async () => {
    const h = harness({ readyTimeoutMs: 1500 })
    const t0 = Date.now()
    const status = await h.supervisor.start(fake('--fake-mode', 'never-ready'))
    expect(status.state).toBe('errored')
    expect(status.lastExit?.kind).toBe('ready-timeout')
    expect(status.lastExit?.reason).toMatch(/did not become ready within 2 s/)
    // The deadline plus the stop's escalation bound (5.5 s), with room for a busy machine: never a hang.
    expect(Date.now() - t0).toBeLessThan(1500 + 5500 + 10_000)
    expect(h.states).toEqual(['starting', 'loading', 'errored'])
  })

  it('a server that ignores SIGTERM and SIGINT is killed, and stop waits for the exit', async () => {
    const h = harness({ stop: { graceMs: 300, secondGraceMs: 300 } })
    const ready = await h.supervisor.start(fake('--fake-mode', 'ignore-stop'))
    expect(ready.state).toBe('ready')
    const t0 = Date.now()
    const stopped = await h.supervisor.stop()
    expect(stopped.state).toBe('stopped')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600)
    expect(stopped.lastExit?.signal).toBe('SIGKILL')
    expect(isRunning(runningProcess(ready).pid)).toBe(false)
    expect(h.supervisor.getLogs().join('\n')).toMatch(/killed after it ignored two signals/)
  })

  it('a grandchild that ignores SIGTERM does not outlive the stop', async () => {
    const h = harness({ stop: { graceMs: 300, secondGraceMs: 300 } })
    await h.supervisor.start(fake('--fake-mode', 'grandchild'))
    await waitUntil(() => h.supervisor.getLogs().some((l) => /^grandchild \d+/.test(l)), 5000, 'the grandchild to report')
    const grandchild = Number(/^grandchild (\d+)/.exec(h.supervisor.getLogs().find((l) => /^grandchild \d+/.test(l)) as string)?.[1])
    expect(isRunning(grandchild)).toBe(true)
    await h.supervisor.stop()
    await waitUntil(() => !isRunning(grandchild), 2000, 'the grandchild to be gone')
  })

  it('10 MB of binary output without a newline is bounded and the server still becomes ready', async () => {
    const h = harness({ logCapacity: 500 })
    // stdout (the garbage) and stderr (the listening line) drain in any order, so the bounded
    // buffer may already have dropped the listening line: watch the line stream instead.
    // The line may also arrive after /health already answered 200 (another pipe): wait for it.
    let sawListening = false
    const listening = new Promise<void>((resolve) => {
      h.supervisor.on('log', (line) => {
        if (/listening on/.test(line)) {
          sawListening = true
          resolve()
        }
      })
    })
    const status = await h.supervisor.start(fake('--fake-mode', 'garbage', '--fake-garbage-bytes', String(10 * 1024 * 1024)))
    expect(status.state).toBe('ready')
    await Promise.race([listening, new Promise((r) => setTimeout(r, 60_000))])
    expect(sawListening).toBe(true)
    const logs = h.supervisor.getLogs()
    expect(logs.length).toBeLessThanOrEqual(500)
    // One cut line, marked, for the 10 MB without a newline (not 1,280 pieces of it).
    expect(Math.max(...logs.map((l) => l.length))).toBeLessThanOrEqual(8192 + CUT_MARK.length)
    expect(logs.filter((l) => l.endsWith(CUT_MARK))).toHaveLength(1)
  })

  it('a crash right after ready is retried, and does not count against a later stable run', async () => {
    const h = harness({ restartPolicy: { initialDelayMs: 20, maxDelayMs: 1000, stableAfterMs: 60_000, maxUnstableExits: 3 } })
    await h.supervisor.start(fake('--fake-mode', 'crash-after', '--fake-crash-ms', '50', '--fake-exit-code', '3'))
    const final = await h.waitFor('crashloop', 60_000)
    expect(final.lastExit?.code).toBe(3)
    expect(final.restarts).toBe(2)
    // A user start after a crashloop begins a fresh count.
    const again = await h.supervisor.start(fake())
    expect(again.state).toBe('ready')
    expect(again.restarts).toBe(0)
  })

  it('a user stop during backoff cancels the restart', async () => {
    const h = harness({ restartPolicy: { initialDelayMs: 5000, maxDelayMs: 5000, stableAfterMs: 60_000, maxUnstableExits: 5 } })
    await h.supervisor.start(fake('--fake-mode', 'crash-after', '--fake-crash-ms', '30'))
    await h.waitFor('backoff')
    const stopped = await h.supervisor.stop()
    expect(stopped.state).toBe('stopped')
    await new Promise((r) => setTimeout(r, 300))
    expect(h.supervisor.getStatus().state).toBe('stopped')
    expect(h.states.filter((s) => s === 'starting')).toHaveLength(1)
  })

  it('starting the running launch again, its environment written in another key order, keeps the running server', async () => {
    const h = harness()
    const first = await h.supervisor.start({ ...fake(), env: { LLAMA_TRAY_A: '1', LLAMA_TRAY_B: '2' } })
    expect(first.state).toBe('ready')
    const again = await h.supervisor.start({ ...fake(), env: { LLAMA_TRAY_B: '2', LLAMA_TRAY_A: '1' } })
    expect([again.state, again.pid]).toEqual(['ready', first.pid])
    expect(h.states.filter((s) => s === 'starting')).toHaveLength(1)
    // A changed value is another launch: the server is started again.
    const changed = await h.supervisor.start({ ...fake(), env: { LLAMA_TRAY_B: '3', LLAMA_TRAY_A: '1' } })
    expect(changed.state).toBe('ready')
    expect(changed.pid).not.toBe(first.pid)
  })

  it('commands are serialised: start, stop, start issued at once end ready with one process', async () => {
    const h = harness()
    const results = await Promise.all([h.supervisor.start(fake()), h.supervisor.stop(), h.supervisor.start(fake('--fake-load-ms', '10'))])
    expect(results[2].state).toBe('ready')
    expect(h.pids.alive()).toEqual([results[2].pid])
  })
})
