import { describe, expect, it } from 'vitest'
import type { GpuDevice } from '../../contract/telemetry'
import { availableVramMiB } from './free-vram'

const device = (free: number | null, total: number | null = 8188, reserved: number | null = 240): GpuDevice => ({
  index: 0,
  name: 'RTX 4070 Laptop',
  memoryTotalMiB: total,
  memoryUsedMiB: null,
  memoryFreeMiB: free,
  memoryReservedMiB: reserved,
  temperatureC: null,
  utilizationPct: null,
  powerW: null,
  powerLimitW: null,
  smClockMHz: null,
  pstate: null,
  throttleReasons: null,
})

describe('availableVramMiB', () => {
  it('is the free VRAM, plus what our own server holds, never above total − reserved', () => {
    expect(availableVramMiB(device(2000))).toBe(2000)
    expect(availableVramMiB(device(500), 5000)).toBe(5500)
    expect(availableVramMiB(device(7000), 5000)).toBe(8188 - 240)
    expect(availableVramMiB(device(7000, null, null), 5000)).toBe(12000)
    expect(availableVramMiB(device(null), 5000)).toBeNull()
    expect(availableVramMiB(device(100), -50)).toBe(100)
  })
})
