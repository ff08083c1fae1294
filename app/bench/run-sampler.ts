import type { BenchRun } from '../contract/bench'
import type { Snapshot } from '../contract/snapshot'
import { SLOWDOWN_THROTTLE_REASONS } from '../contract/telemetry'
import { maxOrNull, minOrNull } from './stats'

/** A heavy app using more than this share of the machine disturbs a run. */
export const HEAVY_APP_BUSY_PCT = 5

/** What a run's conditions add to its figures (the BenchRun fields measured beside the request). */
export type RunConditions = Pick<
  BenchRun,
  | 'peakVramUsedMiB'
  | 'minFreeVramMiB'
  | 'maxGpuTemperatureC'
  | 'throttleReasons'
  | 'cpuSystemPct'
  | 'cpuServerPct'
  | 'heavyApps'
  | 'disturbedReasons'
>

const mean = (v: readonly number[]): number | null => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : null)

/** What the telemetry saw during a run: VRAM extremes, temperature, throttling, CPU and heavy apps. */
export function summariseConditions(samples: readonly Snapshot[], hotC: number): RunConditions {
  const devices = samples.flatMap((s) => (s.gpu?.available ? s.gpu.devices : []))
  const throttle = [...new Set(devices.flatMap((d) => d.throttleReasons ?? []))].filter((r) => SLOWDOWN_THROTTLE_REASONS.has(r))
  const cpus = samples.flatMap((s) => (s.cpu ? [s.cpu] : []))
  const heavy = new Map<string, number | null>()
  for (const c of cpus) {
    for (const app of c.heavyApps) {
      const prev = heavy.get(app.name)
      heavy.set(app.name, app.cpuPct === null ? (prev ?? null) : Math.max(prev ?? 0, app.cpuPct))
    }
  }
  const maxTemp = maxOrNull(devices.map((d) => d.temperatureC))
  const reasons: string[] = []
  for (const [name, pct] of heavy) {
    // Where the platform cannot say how busy an app is, a running heavy app counts.
    if (pct === null || pct >= HEAVY_APP_BUSY_PCT) reasons.push(`${name} running${pct === null ? '' : ` (${pct.toFixed(0)}% CPU)`}`)
  }
  if (throttle.length) reasons.push(`GPU throttled (${throttle.join(', ')})`)
  if (maxTemp !== null && maxTemp >= hotC) reasons.push(`GPU at ${maxTemp} °C`)
  return {
    peakVramUsedMiB: maxOrNull(devices.map((d) => d.memoryUsedMiB)),
    minFreeVramMiB: minOrNull(devices.map((d) => d.memoryFreeMiB)),
    maxGpuTemperatureC: maxTemp,
    throttleReasons: throttle,
    cpuSystemPct: mean(cpus.flatMap((c) => (c.systemPct === null ? [] : [c.systemPct]))),
    cpuServerPct: mean(cpus.flatMap((c) => (c.server?.cpuPct == null ? [] : [c.server.cpuPct]))),
    heavyApps: [...heavy.keys()],
    disturbedReasons: reasons,
  }
}

/** Takes snapshots every `intervalMs` until stopped (and one at each end). */
export class RunSampler {
  private readonly samples: Snapshot[] = []
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly take: () => Snapshot,
    intervalMs = 200,
  ) {
    this.samples.push(take())
    this.timer = setInterval(() => this.samples.push(this.take()), intervalMs)
    this.timer.unref()
  }

  stop(): Snapshot[] {
    clearInterval(this.timer)
    this.samples.push(this.take())
    return this.samples
  }
}
