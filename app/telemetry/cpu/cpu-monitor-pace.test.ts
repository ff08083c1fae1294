import { describe, expect, it } from 'vitest'
import { CpuMonitor, IDLE_UNWATCHED_CPU_MS } from './cpu-monitor'
import type { ProcessSource } from '../../platform/process-source'

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
    const monitor = new CpuMonitor({
      processes: source,
      scanIntervalMs: 5000,
      idleScanIntervalMs: 30_000,
      idleScanMaxIntervalMs: 30_000,
      systemCpu: { sample: () => null } as never,
    })
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

  it('backs the idle scan off while it finds nothing new (30 s, 60 s, 120 s, then the maximum), and scans at 30 s again once work starts', () => {
    const source = countingSource()
    const monitor = new CpuMonitor({
      processes: source,
      idleScanIntervalMs: 30_000,
      idleScanMaxIntervalMs: 120_000,
      systemCpu: { sample: () => null } as never,
    })
    monitor.setIdle(true)
    const scansAt: number[] = []
    for (let t = 0; t <= 600_000; t += 1000) {
      const before = source.scans
      monitor.tick(t)
      if (source.scans > before) scansAt.push(t)
    }
    expect(scansAt).toEqual([0, 30_000, 90_000, 210_000, 330_000, 450_000, 570_000])
    monitor.setIdle(false)
    monitor.tick(571_000)
    monitor.setIdle(true)
    for (let t = 572_000; t <= 602_000; t += 1000) monitor.tick(t)
    expect(source.scans).toBe(scansAt.length + 2) // at the start of work, then 30 s later
  })

  it('scans at the base idle pace again when a heavy app appeared since the last scan', () => {
    const names = ['init']
    let scans = 0
    const source: ProcessSource = {
      list: () => {
        scans++
        return names.map((name, i) => ({ pid: i + 1, name, cpuMs: 0, rssKiB: 0 }))
      },
      read: () => null,
    }
    const monitor = new CpuMonitor({
      processes: source,
      idleScanIntervalMs: 30_000,
      idleScanMaxIntervalMs: 240_000,
      systemCpu: { sample: () => null } as never,
    })
    monitor.setIdle(true)
    for (let t = 0; t <= 90_000; t += 1000) monitor.tick(t) // scans at 0, 30 s, 90 s: the next would wait 120 s
    expect(scans).toBe(3)
    names.push('discord')
    for (let t = 91_000; t <= 210_000; t += 1000) monitor.tick(t) // scan at 210 s finds Discord
    expect(scans).toBe(4)
    expect(monitor.tick(211_000).heavyApps.map((h) => h.name)).toEqual(['Discord'])
    for (let t = 212_000; t <= 240_000; t += 1000) monitor.tick(t) // back to the 30 s pace after a change
    expect(scans).toBe(5)
  })

  it('idle and unwatched it never scans; a request or a shown dashboard scans at once', () => {
    const source = countingSource()
    const monitor = new CpuMonitor({ processes: source, idleScanIntervalMs: 30_000, systemCpu: { sample: () => null } as never })
    monitor.tick(0)
    expect(source.scans).toBe(1)
    monitor.setWatched(false)
    monitor.setIdle(true)
    for (let t = 1000; t <= 600_000; t += 1000) monitor.tick(t)
    expect(source.scans).toBe(1)
    monitor.setWatched(true) // the dashboard opened: its top processes are fresh at once
    monitor.tick(601_000)
    expect(source.scans).toBe(2)
    monitor.setWatched(false)
    monitor.setIdle(false) // a request started: heavy apps matter again
    monitor.tick(602_000)
    expect(source.scans).toBe(3)
  })

  it('idle and unwatched it reads the CPU and RAM once a minute; a request or a shown dashboard reads them at once', () => {
    let reads = 0
    const systemCpu = { sample: () => ++reads } as never
    const monitor = new CpuMonitor({ processes: null, systemCpu, memory: () => ({ totalBytes: 1, freeBytes: 1 }) })
    monitor.setWatched(false)
    monitor.setIdle(true)
    for (let t = 0; t < IDLE_UNWATCHED_CPU_MS; t += 5000) expect(monitor.tick(t).systemPct).toBe(1)
    expect(reads).toBe(1)
    expect(monitor.tick(IDLE_UNWATCHED_CPU_MS).systemPct).toBe(2)
    monitor.setIdle(false) // a request started: fresh figures at once, then every tick
    expect(monitor.tick(IDLE_UNWATCHED_CPU_MS + 1000).systemPct).toBe(3)
    expect(monitor.tick(IDLE_UNWATCHED_CPU_MS + 2000).systemPct).toBe(4)
    monitor.setIdle(true)
    monitor.setWatched(true) // the dashboard shows the figures: every tick
    expect(monitor.tick(IDLE_UNWATCHED_CPU_MS + 3000).systemPct).toBe(5)
    expect(monitor.tick(IDLE_UNWATCHED_CPU_MS + 4000).systemPct).toBe(6)
  })
})
