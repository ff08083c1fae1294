import type { GpuDevice } from '../../contract/telemetry'

interface Point {
  /** Epoch ms of the sample. */
  readonly time: number
  /** Energy in J since the meter's origin: NVML's counter where it counts, else the power samples integrated. */
  readonly joules: number
  readonly powerW: number | null
}

/**
 * The GPU's energy over time, from the telemetry's samples: NVML's total-energy counter where the GPU has one (probed
 * once by the reader), else its power samples integrated (trapezoids: nvidia-smi's power.draw.average or NVML's
 * power without the counter). between() gives the energy of a span, such as one request; its resolution is the
 * sampling period (1 s while a request runs). Between requests it need not be fed: a span is interpolated between the
 * samples around it, and the core reads NVML's counter only around requests (each read cost 0.6 ms on an H100).
 */
export class EnergyMeter {
  private points: Point[] = []
  private kind: 'counter' | 'integral' | null = null

  constructor(private readonly maxPoints = 3600) {}

  /** One sample of the first GPU (a sample without energy or power, e.g. asleep, leaves a gap: spans over it are unknown). */
  record(time: number, device: GpuDevice | null | undefined): void {
    const counter = device?.energyMJ ?? null
    const power = device?.powerW ?? null
    const kind = counter !== null ? 'counter' : power !== null ? 'integral' : null
    if (kind === null || kind !== this.kind) this.points = []
    this.kind = kind
    if (kind === null) return
    const last = this.points.at(-1)
    if (last && time <= last.time) return
    let joules: number
    if (counter !== null) joules = counter / 1000
    else {
      const before = last?.powerW ?? power ?? 0
      joules = last ? last.joules + (((before + (power ?? 0)) / 2) * (time - last.time)) / 1000 : 0
    }
    this.points.push({ time, joules, powerW: power })
    if (this.points.length > this.maxPoints) this.points.splice(0, this.points.length - this.maxPoints)
  }

  /** No sample kept yet (or none since the last gap): the owner records the next one whatever it reads. */
  get empty(): boolean {
    return this.points.length === 0
  }

  /** The energy in J from `fromMs` to `toMs` (epoch), interpolated between samples; null when the samples do not cover the span. */
  between(fromMs: number, toMs: number): number | null {
    const first = this.points[0]
    const last = this.points.at(-1)
    if (!first || !last || this.points.length < 2 || fromMs < first.time || toMs < fromMs) return null
    // A span that ends after the last sample is counted up to it: the request's last moment is sampled at the next tick.
    const end = Math.min(toMs, last.time)
    if (end < fromMs) return null
    return Math.max(0, this.at(end) - this.at(fromMs))
  }

  private at(time: number): number {
    const points = this.points
    let i = points.length - 1
    while (i > 0 && (points[i - 1] as Point).time > time) i--
    const after = points[i] as Point
    const before = points[i - 1]
    if (!before || after.time <= time) return after.joules
    return before.joules + ((after.joules - before.joules) * (time - before.time)) / (after.time - before.time)
  }
}

/** Joules per 1,000 generated tokens over requests with a measured energy; null without any. */
export function joulesPerThousandTokens(
  requests: readonly { readonly energyJ?: number | null; readonly predictedTokens: number }[],
): number | null {
  let joules = 0
  let tokens = 0
  for (const r of requests) {
    if (r.energyJ == null || r.predictedTokens <= 0) continue
    joules += r.energyJ
    tokens += r.predictedTokens
  }
  return tokens > 0 ? (joules / tokens) * 1000 : null
}
