import { describe, expect, it } from 'vitest'
import type { GpuPowerState } from '../../platform/device-power'
import type { GpuProcessSource, GpuProcessUse } from '../../platform/gpu-processes'
import { GpuProcessReader } from './gpu-process-reader'

function fakeSource(list: GpuProcessUse[]): GpuProcessSource & { reads: number } {
  return {
    reads: 0,
    problem: null,
    async read() {
      this.reads++
      return list
    },
    async close() {},
  }
}

const game: GpuProcessUse = { pid: 15320, name: null, dedicatedMiB: 5120, engine3dPct: 91 }
const server: GpuProcessUse = { pid: 4242, name: 'llama-server.exe', dedicatedMiB: 6000, engine3dPct: 0 }

describe('GpuProcessReader', () => {
  it('names unnamed pids from the process table, leaves out our own, and reads at most once per interval', async () => {
    let now = 1000
    const source = fakeSource([server, game])
    const reader = new GpuProcessReader({
      source,
      power: null,
      names: (pids) => new Map(pids.map((p) => [p, p === 15320 ? 'Cyberpunk2077.exe' : '?'])),
      minIntervalMs: 5000,
      now: () => now,
    })
    expect(reader.peek([4242])).toBeNull() // nothing yet: a read starts
    const reading = await reader.read([4242])
    expect(reading?.processes).toEqual([{ ...game, name: 'Cyberpunk2077.exe' }])
    expect(reader.peek([4242])).toEqual([{ ...game, name: 'Cyberpunk2077.exe' }])
    expect(reader.peek([])?.map((p) => p.pid)).toEqual([4242, 15320]) // largest first
    expect(source.reads).toBe(1)
    now += 5000
    await reader.read([4242])
    expect(source.reads).toBe(2)
  })

  it('reads nothing while the GPU sleeps, and again once it is awake', async () => {
    let power: GpuPowerState = { kind: 'asleep', detail: 'D3cold' }
    const source = fakeSource([game])
    let now = 0
    const reader = new GpuProcessReader({ source, power: { read: () => power }, names: null, now: () => now })
    expect(await reader.read([])).toBeNull()
    expect(reader.peek([])).toBeNull()
    await reader.read([])
    expect(source.reads).toBe(0)
    expect(reader.problem).toMatch(/asleep/)
    power = { kind: 'awake', detail: 'D0' }
    now += 1
    expect((await reader.read([]))?.processes).toEqual([game])
    expect(source.reads).toBe(1)
  })
})
