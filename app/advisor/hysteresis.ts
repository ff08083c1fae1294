/**
 * Raise-after-N, clear-after-M with a floor between raises, so a signal that
 * hovers at its threshold cannot flap: at most one raise per minRaiseIntervalMs.
 */
export interface HysteresisConfig {
  /** Consecutive samples with the condition before raising. */
  readonly raiseAfter: number
  /** …and for at least this long (e.g. "below 60% for 10 s"). */
  readonly raiseAfterMs?: number
  /** Consecutive samples without it before clearing. */
  readonly clearAfter: number
  /** No new raise sooner than this after the previous one (default one minute). */
  readonly minRaiseIntervalMs?: number
}

/** true: the condition holds; false: it does not; null: nothing to judge by this sample (kept as it was). */
export type Observation = boolean | null

export type Transition = 'raised' | 'cleared' | null

export const ONE_MINUTE = 60_000

export class Hysteresis {
  private on = 0
  private off = 0
  private onSince: number | null = null
  private lastRaise: number | null = null
  private raisedAt: number | null = null

  constructor(private readonly config: HysteresisConfig) {}

  get raised(): boolean {
    return this.raisedAt !== null
  }

  /** The condition holds but has not raised yet. */
  get pending(): boolean {
    return this.on > 0 && this.raisedAt === null
  }

  /** Epoch ms of the current raise; null while clear. */
  get since(): number | null {
    return this.raisedAt
  }

  update(observation: Observation, now: number): Transition {
    if (observation === null) return null
    if (observation) {
      this.on++
      this.off = 0
      this.onSince ??= now
      if (this.raisedAt !== null) return null
      const long = now - this.onSince >= (this.config.raiseAfterMs ?? 0)
      const spaced = this.lastRaise === null || now - this.lastRaise >= (this.config.minRaiseIntervalMs ?? ONE_MINUTE)
      if (this.on >= this.config.raiseAfter && long && spaced) {
        this.raisedAt = now
        this.lastRaise = now
        return 'raised'
      }
      return null
    }
    this.off++
    this.on = 0
    this.onSince = null
    if (this.raisedAt !== null && this.off >= this.config.clearAfter) {
      this.raisedAt = null
      return 'cleared'
    }
    return null
  }
}
