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
}

/**
 * Live generation rate per busy slot from successive /slots readings (pure
 * state, no I/O). The baseline is reset when the task changes or n_decoded
 * falls (a new request, or v0.5.0 zeroing it on release), and a baseline taken
 * before the first token is not used: its interval would include prompt time.
 */
export class SlotRates {
  private readonly baselines = new Map<number, Baseline>()

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
      const next: Baseline = { taskId: reading.taskId, decoded, time }
      const sameTask = base !== undefined && base.taskId === reading.taskId && decoded >= base.decoded
      if (!sameTask || base.decoded === 0 || time <= base.time) {
        // Keep the older baseline when the clock did not move (a duplicate reading).
        if (!(sameTask && time <= base.time)) this.baselines.set(reading.id, next)
        return { reading, tokensPerSecond: null }
      }
      this.baselines.set(reading.id, next)
      return { reading, tokensPerSecond: ((decoded - base.decoded) * 1000) / (time - base.time) }
    })
    for (const id of [...this.baselines.keys()]) if (!seen.has(id)) this.baselines.delete(id)
    return out
  }

  reset(): void {
    this.baselines.clear()
  }
}
