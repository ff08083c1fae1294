import { describe, expect, it } from 'vitest'
import { CpuMonitor } from './cpu-monitor'
import type { ProcessSource } from './process-source'

function countingSource(): ProcessSource & { scans: number } {
  const source = {
    scans: 0,
    list() {
      source.scans++
      return [{ pid: 1, name: 'init', cpuMs: 0, rssKiB: 0 }]
    },
    read: () => null,
  }
  return source
}

describe('CpuMonitor scan pace', () => {
  it('scans the process table every scanIntervalMs, rarely while the server is idle, and at once when work starts', () => {
    const source = countingSource()
    const monitor = new CpuMonitor({ processes: source, scanIntervalMs: 5000, idleScanIntervalMs: 30_000, systemCpu: { sample: () => null } as never })
    monitor.tick(0)
    monitor.tick(5000)
    expect(source.scans).toBe(2)
    monitor.setIdle(true)
    for (let t = 6000; t <= 34_000; t += 1000) monitor.tick(t)
    expect(source.scans).toBe(2)
    monitor.tick(35_000)
    expect(source.scans).toBe(3)
    monitor.setIdle(false) // a request started: its competitors are seen now, not in 30 s
    monitor.tick(36_000)
    expect(source.scans).toBe(4)
    monitor.tick(40_000)
    expect(source.scans).toBe(4)
    monitor.tick(41_000)
    expect(source.scans).toBe(5)
  })
})
