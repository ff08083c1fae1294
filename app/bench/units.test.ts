import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { median } from '../metrics/median'
import { importArgv } from '../profiles/import-command'
import { renderArgs } from '../profiles/profile-args'
import { ProgressTracker } from './progress'
import { summariseConditions } from './run-sampler'
import { spreadOf } from './stats'
import { sweepSettings } from './tune'
import { hasDraft, withNCpuMoe, withoutDraft } from './variants'
import type { Snapshot } from '../contract/snapshot'

describe('spreadOf', () => {
  it('brackets the median and is scale-free', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0.5, max: 4, noNaN: true }),
        (values, k) => {
          const s = spreadOf(values)
          const m = median(values) as number
          expect(s).not.toBeNull()
          if (!s) return
          expect(s.min).toBeLessThanOrEqual(m)
          expect(s.max).toBeGreaterThanOrEqual(m)
          expect(s.mad).toBeLessThanOrEqual(s.max - s.min + 1e-9)
          const scaled = spreadOf(values.map((v) => v * k)) as NonNullable<typeof s>
          expect(scaled.rangePct).toBeCloseTo(s.rangePct, 6)
          expect(scaled.robustCvPct).toBeCloseTo(s.robustCvPct, 6)
        },
      ),
      { numRuns: 2000 },
    )
    expect(spreadOf([])).toBeNull()
  })
})

describe('sweepSettings', () => {
  it('stays within 0…max, includes the centre (when valid) and the current setting, sorted and unique', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 60 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 48 }),
        fc.option(fc.integer({ min: 0, max: 48 })),
        (c, r, max, cur) => {
          const s = sweepSettings(c, r, max, cur)
          expect(s.every((n) => n >= 0 && n <= max)).toBe(true)
          expect([...s].sort((a, b) => a - b)).toEqual(s)
          expect(new Set(s).size).toBe(s.length)
          if (c >= 0 && c <= max) expect(s).toContain(c)
          if (cur !== null && cur <= max) expect(s).toContain(cur)
        },
      ),
      { numRuns: 3000 },
    )
  })
})

describe('profile variants', () => {
  const seed = importArgv(
    [
      'llama-server',
      '-m',
      'm.gguf',
      '-ngl',
      '999',
      '--n-cpu-moe',
      '34',
      '-c',
      '65536',
      '-md',
      'd.gguf',
      '-ngld',
      '99',
      '--spec-type',
      'draft-simple',
      '--draft-p-min',
      '0.5',
      '--reasoning',
      'off',
    ],
    { name: 'seed' },
  )

  it('switches --n-cpu-moe, keeping everything else in place', () => {
    const args = renderArgs(withNCpuMoe(seed, 30))
    expect(args).toEqual([
      '-m',
      'm.gguf',
      '-ngl',
      '999',
      '--n-cpu-moe',
      '30',
      '-c',
      '65536',
      '-md',
      'd.gguf',
      '-ngld',
      '99',
      '--spec-type',
      'draft-simple',
      '--draft-p-min',
      '0.5',
      '--reasoning',
      'off',
    ])
    const cpuMoe = importArgv(['llama-server', '-m', 'm.gguf', '--cpu-moe'], { name: 'x' })
    expect(renderArgs(withNCpuMoe(cpuMoe, 12))).toEqual(['-m', 'm.gguf', '--n-cpu-moe', '12'])
  })

  it('drops the draft and every draft option', () => {
    expect(hasDraft(seed)).toBe(true)
    const plain = withoutDraft(seed)
    expect(hasDraft(plain)).toBe(false)
    const args = renderArgs(plain)
    expect(args).toEqual(expect.arrayContaining(['-m', 'm.gguf', '--n-cpu-moe', '34', '-c', '65536', '--reasoning', 'off']))
    expect(args.some((a) => /draft|^-md$|^-ngld$|spec/.test(a))).toBe(false)
  })

  it('an MTP head counts as speculative: tune and compare run it with and without the head', () => {
    const mtp = importArgv(['llama-server', '-m', 'mtp.gguf', '-c', '8192', '--spec-type', 'draft-mtp'], { name: 'mtp' })
    expect(hasDraft(mtp)).toBe(true)
    expect(renderArgs(withoutDraft(mtp))).toEqual(['-m', 'mtp.gguf', '-c', '8192'])
  })
})

describe('run conditions', () => {
  const snap = (free: number, temp: number, throttle: string[], heavy: { name: string; cpuPct: number | null }[]): Snapshot =>
    ({
      time: 0,
      server: {} as Snapshot['server'],
      generation: null,
      warnings: [],
      gpu: {
        available: true,
        reason: null,
        backend: 'nvidia-smi',
        stale: false,
        sampledAt: 1,
        devices: [
          {
            index: 0,
            name: 'g',
            memoryTotalMiB: 8000,
            memoryUsedMiB: 8000 - free,
            memoryFreeMiB: free,
            memoryReservedMiB: 0,
            temperatureC: temp,
            utilizationPct: 1,
            powerW: 1,
            powerLimitW: 1,
            smClockMHz: 1,
            pstate: 'P0',
            throttleReasons: throttle,
          },
        ],
      },
      cpu: {
        systemPct: 50,
        ramTotalMiB: 1,
        ramFreeMiB: 1,
        server: { pid: 1, cpuPct: 40, rssMiB: 1 },
        heavyApps: heavy.map((h) => ({ ...h, pids: [2] })),
        topProcesses: [],
      },
    }) as Snapshot

  it('keeps VRAM extremes and flags heavy apps, thermal throttling and heat, not a power cap', () => {
    const c = summariseConditions([snap(2000, 60, ['sw_power_cap'], []), snap(1500, 61, [], [])], 85)
    expect(c).toMatchObject({ minFreeVramMiB: 1500, peakVramUsedMiB: 6500, maxGpuTemperatureC: 61, disturbedReasons: [] })
    const d = summariseConditions(
      [
        snap(
          2000,
          90,
          ['hw_thermal_slowdown'],
          [
            { name: 'Discord', cpuPct: 12 },
            { name: 'chrome', cpuPct: 1 },
          ],
        ),
      ],
      85,
    )
    expect(d.disturbedReasons.join('; ')).toMatch(/Discord running \(12% CPU\); GPU throttled \(hw_thermal_slowdown\); GPU at 90 °C/)
    expect(d.heavyApps).toEqual(['Discord', 'chrome'])
  })
})

describe('ProgressTracker', () => {
  it('counts steps and estimates the time left from measured steps', async () => {
    let now = 0
    const seen: { step: number; total: number; left: number | null }[] = []
    const p = new ProgressTracker(
      (x) => seen.push({ step: x.step, total: x.totalSteps, left: x.remainingMs }),
      { start: 1000, warmup: 1000, run: 1000 },
      () => now,
    )
    p.plan('run', 3)
    for (let i = 0; i < 3; i++) await p.step('run', 'run', 'r', null, async () => void (now += 200))
    expect(seen).toEqual([
      { step: 1, total: 3, left: null },
      { step: 2, total: 3, left: 400 },
      { step: 3, total: 3, left: 200 },
    ])
  })
})
