import type { SlotReading } from './slots-parser'

/** A slot reading with its live rate, as computed from successive polls. */
export interface RatedSlot {
  readonly reading: SlotReading
  /** Δn_decoded/Δt since the previous poll of the same task; null when there is no valid baseline. */
  readonly tokensPerSecond: number | null
}

interface Baseline {
  readonly taskId: number | null
  readonly decoded: number
  /** Monotonic ms. */
  readonly time: number
  /** The rate last given for this task, repeated for readings that come too soon after the baseline. */
  readonly rate: number | null
}

/**
 * Live generation rate per busy slot from successive /slots readings (pure
 * state, no I/O). The baseline is reset when the task changes or n_decoded
 * falls (a new request, or v0.5.0 zeroing it on release), and a baseline taken
 * before the first token is not used: its interval would include prompt time.
 * A reading less than minIntervalMs after the baseline (an extra poll because
 * another slot started or ended) keeps the baseline and repeats the last rate:
 * over a few milliseconds Δn_decoded is 0 or 1 and the figure would be noise.
 */
export class SlotRates {
  private readonly baselines = new Map<number, Baseline>()

  constructor(private readonly minIntervalMs = 150) {}

  /** `time` is a monotonic clock in ms (performance.now()). */
  update(readings: readonly SlotReading[], time: number): RatedSlot[] {
    const seen = new Set<number>()
    const out = readings.map((reading): RatedSlot => {
      seen.add(reading.id)
      const decoded = reading.nDecoded
      if (!reading.processing || decoded === null) {
        this.baselines.delete(reading.id)
        return { reading, tokensPerSecond: null }
      }
      const base = this.baselines.get(reading.id)
      const sameTask = base !== undefined && base.taskId === reading.taskId && decoded >= base.decoded
      if (!sameTask || base.decoded === 0) {
        this.baselines.set(reading.id, { taskId: reading.taskId, decoded, time, rate: null })
        return { reading, tokensPerSecond: null }
      }
      if (time - base.time < this.minIntervalMs) return { reading, tokensPerSecond: base.rate }
      const rate = ((decoded - base.decoded) * 1000) / (time - base.time)
      this.baselines.set(reading.id, { taskId: reading.taskId, decoded, time, rate })
      return { reading, tokensPerSecond: rate }
    })
    for (const id of [...this.baselines.keys()]) if (!seen.has(id)) this.baselines.delete(id)
    return out
  }

  reset(): void {
    this.baselines.clear()
  }
}
