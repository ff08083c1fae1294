import { describe, expect, it } from 'vitest'
import { CpuShareTracker } from './cpu-share'
import { SystemCpuMeter, cpuPercentBetween } from './system-cpu'

const cpu = (user: number, idle: number) => ({ times: { user, nice: 0, sys: 0, idle, irq: 0 } })

describe('system CPU from os.cpus() deltas', () => {
  it('is null on the first reading, then the busy share across every core', () => {
    const readings = [[cpu(100, 900), cpu(100, 900)], [cpu(400, 1600), cpu(100, 1900)]]
    const meter = new SystemCpuMeter(() => readings.shift()!)
    expect(meter.sample()).toBeNull()
    expect(meter.sample()).toBeCloseTo((300 / 2000) * 100) // core 0: 300 busy of 1000; core 1: idle
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
