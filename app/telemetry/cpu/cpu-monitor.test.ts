import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sleep, waitFor } from '../../../test/support/telemetry/fake-smi-env'
import { CpuMonitor } from './cpu-monitor'
import { LinuxProcessSource } from './linux-processes'

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
})

/** A real process that burns one core for a while. */
function busyChild(): ChildProcess {
  const c = spawn(
    process.execPath,
    ['-e', 'const end = Date.now() + 20000; const keep = Buffer.alloc(32 << 20, 1); while (Date.now() < end) {}'],
    { stdio: 'ignore' },
  )
  children.push(c)
  return c
}

describe.runIf(process.platform === 'linux')('CpuMonitor on Linux /proc', () => {
  it("follows the server's own CPU and RSS, and ranks a busy process among the top consumers", async () => {
    const server = busyChild()
    const other = busyChild()
    const source = new LinuxProcessSource()
    expect(await waitFor(() => (source.read(server.pid!)?.rssKiB ?? 0) > 30 * 1024, 5000)).toBe(true)
    const monitor = new CpuMonitor({ processes: source, scanIntervalMs: 0, topCount: 10_000 })
    monitor.setServerPid(server.pid!)
    monitor.tick()
    await sleep(1000)
    const snap = monitor.tick()
    expect(snap.systemPct).toBeGreaterThan(0)
    expect(snap.ramTotalMiB).toBeGreaterThan(snap.ramFreeMiB)
    expect(snap.server?.pid).toBe(server.pid)
    // A busy loop: at most one core's share of the machine, and clearly more than nothing even on a shared machine.
    expect(snap.server!.cpuPct!).toBeGreaterThan(1)
    expect(snap.server!.cpuPct!).toBeLessThanOrEqual(100 / availableParallelism() + 2)
    expect(snap.server!.rssMiB!).toBeGreaterThan(30)
    expect(snap.topProcesses.map((p) => p.pid)).toContain(other.pid)
    expect(snap.topProcesses.map((p) => p.pid)).not.toContain(server.pid)
    // The server going away is reported, not thrown.
    server.kill('SIGKILL')
    await waitFor(() => source.read(server.pid!) === null, 3000)
    expect(monitor.tick().server).toEqual({ pid: server.pid, cpuPct: null, rssMiB: null })
  })

  it('finds heavy apps in a /proc tree and scans only every scanIntervalMs', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'fake-proc-'))
    try {
      const proc = (pid: number, name: string, ticks: number): void => {
        mkdirSync(path.join(root, String(pid)), { recursive: true })
        writeFileSync(path.join(root, String(pid), 'stat'), `${pid} (${name}) S 1 1 1 0 -1 0 0 0 0 0 ${ticks} 0 0 0 20 0 1 0 1 1 100 0`)
      }
      proc(100, 'Discord', 0)
      proc(101, 'chrome', 0)
      writeFileSync(path.join(root, 'uptime'), '1 1')
      const monitor = new CpuMonitor({ processes: new LinuxProcessSource(root), scanIntervalMs: 5000, cpuCount: 2 })
      expect(
        monitor
          .tick(0)
          .heavyApps.map((a) => a.name)
          .sort(),
      ).toEqual(['Chrome', 'Discord'])
      proc(100, 'Discord', 100) // 1 s of CPU
      proc(102, 'obs', 0)
      expect(monitor.tick(1000).heavyApps).toHaveLength(2) // no scan yet
      const later = monitor.tick(5000)
      expect(later.heavyApps[0]).toEqual({ name: 'Discord', pids: [100], cpuPct: 10 }) // 1 s over 5 s on 2 cores
      expect(later.heavyApps.map((a) => a.name)).toContain('OBS')
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
