import { describe, expect, it } from 'vitest'
import type { GpuDevice } from '../contract/telemetry'
import { throttleWatts } from './live-rules'

const device = (fields: Partial<GpuDevice>): GpuDevice => ({
  index: 0,
  name: 'NVIDIA GeForce RTX 4060 Laptop GPU',
  memoryTotalMiB: 8188,
  memoryUsedMiB: 6000,
  memoryFreeMiB: 2188,
  memoryReservedMiB: 200,
  temperatureC: 87,
  utilizationPct: 99,
  powerW: 58.4,
  powerLimitW: 60,
  smClockMHz: 1500,
  pstate: 'P0',
  throttleReasons: ['sw_power_cap', 'hw_thermal_slowdown'],
  ...fields,
})

describe("the throttling warning's watts", () => {
  it('says the draw against the enforced limit, and the power cap when it is among the clock events', () => {
    expect(throttleWatts([device({})])).toBe('It draws 58 W of its 60 W limit, at its power cap. ')
    expect(throttleWatts([device({ throttleReasons: ['sw_thermal_slowdown'] })])).toBe('It draws 58 W of its 60 W limit. ')
  })

  it('shows what is there: no limit reported ([N/A] on laptops), or no power at all', () => {
    expect(throttleWatts([device({ powerLimitW: null, throttleReasons: ['hw_slowdown'] })])).toBe('It draws 58 W. ')
    expect(throttleWatts([device({ powerW: null })])).toBe('')
    expect(throttleWatts([device({ throttleReasons: ['sw_power_cap'] })])).toBe('') // the cap alone is how a busy GPU runs
  })
})
