import { describe, expect, it } from 'vitest'
import { CpuShareTracker } from './cpu-share'
import os from 'node:os'
import { SystemCpuMeter, cpuPercentBetween, parseProcStatCpuLine, readCpuTimes, sumCpuTimes } from './system-cpu'

const cpu = (user: number, idle: number) => ({ times: { user, nice: 0, sys: 0, idle, irq: 0 } })

describe('system CPU from os.cpus() deltas', () => {
  it('is null on the first reading, then the busy share across every core', () => {
    const readings = [
      [cpu(100, 900), cpu(100, 900)],
      [cpu(400, 1600), cpu(100, 1900)],
    ]
    const meter = new SystemCpuMeter(() => sumCpuTimes(readings.shift()!))
    expect(meter.sample()).toBeNull()
    expect(meter.sample()).toBeCloseTo((300 / 2000) * 100) // core 0: 300 busy of 1000; core 1: idle
  })

  it('reads the machine-wide line of /proc/stat as os.cpus() sums it (user, nice, system, idle, irq)', () => {
    const text =
      'cpu  739862 685052 312672 613057 39138 11 2191 7864 0 0\ncpu0 368032 342379 154183 318805 11910 0 551 3863 0 0\nintr 1 2 3\n'
    expect(parseProcStatCpuLine(text)).toEqual({ idle: 613057, total: 739862 + 685052 + 312672 + 613057 + 11 })
    expect(parseProcStatCpuLine('cpu0 1 2 3 4 5 6 7\n')).toBeNull()
    expect(parseProcStatCpuLine('cpu  1 2 x 4 5 6\n')).toBeNull()
    expect(parseProcStatCpuLine('')).toBeNull()
  })

  it("reads this machine's counters, which only grow", () => {
    const a = readCpuTimes()
    const spin = Date.now() + 50
    while (Date.now() < spin) Math.sqrt(Math.random())
    const b = readCpuTimes()
    expect(b.total).toBeGreaterThan(a.total)
    expect(b.idle).toBeGreaterThanOrEqual(a.idle)
    expect(sumCpuTimes(os.cpus()).total).toBeGreaterThan(0)
  })

  it('refuses counters that went back (hot-plugged CPU, wrap)', () => {
    expect(cpuPercentBetween({ idle: 10, total: 100 }, { idle: 5, total: 120 })).toBeNull()
    expect(cpuPercentBetween({ idle: 10, total: 100 }, { idle: 10, total: 100 })).toBeNull()
  })

  it('gives each process a share of the whole machine and restarts a reused pid', () => {
    const t = new CpuShareTracker(4)
    expect(t.update([{ pid: 7, name: 'a', cpuMs: 1000, rssKiB: null }], 0).get(7)).toBeNull()
    expect(t.update([{ pid: 7, name: 'a', cpuMs: 3000, rssKiB: null }], 1000).get(7)).toBe(50) // 2 s of CPU in 1 s on 4 cores
    expect(t.update([{ pid: 7, name: 'b', cpuMs: 10, rssKiB: null }], 2000).get(7)).toBeNull()
  })
})
