import { describe, expect, it } from 'vitest'
import type { GpuDevice, GpuSnapshot } from '../../contract/telemetry'
import type { GpuPowerState } from '../../platform/device-power'
import { AsleepGate } from './asleep-gate'
import type { GpuReader } from './gpu-reader'

const device: GpuDevice = {
  index: 0,
  name: 'NVIDIA GeForce RTX 4060 Laptop GPU',
  memoryTotalMiB: 8188,
  memoryUsedMiB: 500,
  memoryFreeMiB: 7688,
  memoryReservedMiB: 200,
  temperatureC: 45,
  utilizationPct: 3,
  powerW: 4.2,
  powerLimitW: null,
  smClockMHz: 210,
  pstate: 'P8',
  throttleReasons: [],
}

/** A reader that counts its queries and its opens and closes, standing in for NVML. */
class CountingReader implements GpuReader {
  readonly backend = 'nvml' as const
  reads = 0
  closed = false
  read(): GpuSnapshot {
    this.reads++
    return { available: true, reason: null, backend: 'nvml', stale: false, sampledAt: 1000 + this.reads, devices: [device] }
  }
  async close(): Promise<void> {
    this.closed = true
  }
}

function harness(initial: GpuPowerState['kind']) {
  let kind = initial
  const readers: CountingReader[] = []
  const changes: string[] = []
  const gate = new AsleepGate({
    power: { read: () => ({ kind, detail: kind === 'asleep' ? 'D3cold' : 'D0' }) },
    open: async () => {
      const r = new CountingReader()
      readers.push(r)
      return r
    },
    onPowerChange: (s) => changes.push(s.kind),
  })
  return {
    gate,
    readers,
    changes,
    set: (k: GpuPowerState['kind']) => {
      kind = k
    },
    queries: () => readers.reduce((n, r) => n + r.reads, 0),
  }
}

describe('the asleep gate in front of the GPU reader', () => {
  it('opens nothing and queries nothing while the GPU sleeps, then reads at the first tick after it wakes', async () => {
    const h = harness('asleep')
    await h.gate.ready()
    for (let tick = 0; tick < 30; tick++) expect(h.gate.read()).toMatchObject({ available: false, asleep: true, devices: [] })
    expect(h.readers).toHaveLength(0)
    h.set('awake')
    const fresh = new Promise<void>((resolve) => h.gate.onFresh(resolve))
    expect(h.gate.read().available).toBe(false) // this tick opens the reader
    await fresh
    expect(h.gate.read()).toMatchObject({ available: true, devices: [device] })
    expect(h.queries()).toBe(1)
    expect(h.changes).toEqual(['asleep', 'awake'])
  })

  it('closes the open reader when the GPU falls asleep and keeps the last known total', async () => {
    const h = harness('awake')
    await h.gate.ready()
    expect(h.gate.read().available).toBe(true)
    h.set('asleep')
    const asleep = h.gate.read()
    expect(asleep.asleep).toBe(true)
    expect(asleep.reason).toMatch(/asleep \(D3cold\)/)
    expect(asleep.devices[0]).toMatchObject({ name: device.name, memoryTotalMiB: 8188, memoryFreeMiB: null, powerW: null })
    await h.gate.close()
    expect(h.readers[0]?.closed).toBe(true)
    expect(h.queries()).toBe(1)
  })

  it('reads as before where the power state is unknown (no NVIDIA PCI device listed, another OS)', async () => {
    const h = harness('unknown')
    await h.gate.ready()
    expect(h.gate.read().available).toBe(true)
    expect(h.gate.read().available).toBe(true)
    expect(h.queries()).toBe(2)
  })

  it('gives a reader back that finished opening after the GPU fell asleep', async () => {
    const h = harness('awake')
    const opening = h.gate.ready()
    h.set('asleep')
    await opening
    expect(h.gate.reading).toBe(false)
    expect(h.readers[0]?.closed).toBe(true)
  })
})
