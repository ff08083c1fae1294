import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { GpuDevice } from '../../contract/telemetry'
import { EnergyMeter, joulesPerThousandTokens } from './energy-meter'

const gpu = (fields: Partial<GpuDevice>): GpuDevice => ({
  index: 0,
  name: 'NVIDIA H200',
  memoryTotalMiB: 143771,
  memoryUsedMiB: 1000,
  memoryFreeMiB: 142000,
  memoryReservedMiB: 616,
  temperatureC: 40,
  utilizationPct: 90,
  powerW: null,
  powerLimitW: 700,
  smClockMHz: 1980,
  pstate: 'P0',
  throttleReasons: [],
  ...fields,
})

describe('the GPU energy meter', () => {
  it("takes a span's energy from NVML's counter, interpolated between samples", () => {
    const m = new EnergyMeter()
    m.record(1000, gpu({ energyMJ: 5_000_000, powerW: 100 }))
    m.record(2000, gpu({ energyMJ: 5_300_000, powerW: 300 }))
    m.record(3000, gpu({ energyMJ: 5_500_000, powerW: 200 }))
    expect(m.between(1000, 3000)).toBeCloseTo(500)
    expect(m.between(1500, 2500)).toBeCloseTo(150 + 100)
    expect(m.between(500, 2000)).toBeNull() // before the first sample: not covered
    expect(m.between(2000, 9000)).toBeCloseTo(200) // counted up to the last sample
  })

  it('integrates the power samples where there is no counter (nvidia-smi, a laptop GPU without it)', () => {
    const m = new EnergyMeter()
    m.record(0, gpu({ powerW: 60 }))
    m.record(1000, gpu({ powerW: 80 }))
    m.record(3000, gpu({ powerW: 80 }))
    expect(m.between(0, 3000)).toBeCloseTo(70 + 160)
  })

  it('starts over across a gap (GPU asleep, no power figure) and when the source changes', () => {
    const m = new EnergyMeter()
    m.record(0, gpu({ energyMJ: 1000, powerW: 10 }))
    m.record(1000, gpu({ energyMJ: 11_000, powerW: 10 }))
    m.record(2000, gpu({ powerW: null }))
    m.record(3000, gpu({ energyMJ: 31_000 }))
    expect(m.between(0, 3000)).toBeNull()
    m.record(4000, gpu({ powerW: 50 }))
    m.record(5000, gpu({ powerW: 50 }))
    expect(m.between(4000, 5000)).toBeCloseTo(50)
  })

  it('gives J per 1,000 generated tokens over the requests that have an energy', () => {
    expect(
      joulesPerThousandTokens([
        { energyJ: 30, predictedTokens: 100 },
        { energyJ: 10, predictedTokens: 100 },
        { energyJ: null, predictedTokens: 500 },
        { predictedTokens: 10 },
      ]),
    ).toBeCloseTo(200)
    expect(joulesPerThousandTokens([{ energyJ: null, predictedTokens: 5 }])).toBeNull()
  })
})

describe('energy recorded on a real GPU', () => {
  it('gives the J per 1,000 tokens the endpoint showed for five generations on an H100', () => {
    const recording = JSON.parse(readFileSync(new URL('../../../test/fixtures/gpu-energy-h100/energy.json', import.meta.url), 'utf8')) as {
      rows: { energyJ: number; predictedTokens: number }[]
      rolling: { joulesPer1000Tokens: number }
    }
    expect(recording.rows).toHaveLength(5)
    // 1,675.9 J over 1,500 tokens at about 190-240 W and 213 tok/s
    expect(joulesPerThousandTokens(recording.rows)).toBeCloseTo(recording.rolling.joulesPer1000Tokens, 1)
  })
})
