import type { BenchPhase, BenchProgress } from '../contract/bench'

/** The kinds of steps whose durations the estimate learns. */
export type StepKind = 'start' | 'warmup' | 'run'

/**
 * Counts steps and estimates the time left from the durations of steps
 * already done (per kind); before a kind was seen, a first guess is used.
 */
export class ProgressTracker {
  private readonly t0: number
  private done = 0
  private readonly seen: Record<StepKind, { n: number; ms: number }> = {
    start: { n: 0, ms: 0 },
    warmup: { n: 0, ms: 0 },
    run: { n: 0, ms: 0 },
  }
  private remainingByKind: Record<StepKind, number> = { start: 0, warmup: 0, run: 0 }

  constructor(
    private readonly emit: ((p: BenchProgress) => void) | undefined,
    private readonly guessMs: Record<StepKind, number>,
    private readonly now: () => number = Date.now,
  ) {
    this.t0 = now()
  }

  /** Adds planned steps (a tune learns its plan as it goes). */
  plan(kind: StepKind, count: number): void {
    this.remainingByKind[kind] += count
  }

  /** Removes planned steps that will not happen (a skipped setting). */
  unplan(kind: StepKind, count: number): void {
    this.remainingByKind[kind] = Math.max(0, this.remainingByKind[kind] - count)
  }

  get elapsedMs(): number {
    return this.now() - this.t0
  }

  /** Runs one planned step, timing it. */
  async step<T>(kind: StepKind, phase: BenchPhase, message: string, profileId: string | null, job: () => Promise<T>): Promise<T> {
    this.report(phase, message, profileId)
    const t = this.now()
    try {
      return await job()
    } finally {
      this.seen[kind].n++
      this.seen[kind].ms += this.now() - t
      this.remainingByKind[kind] = Math.max(0, this.remainingByKind[kind] - 1)
      this.done++
    }
  }

  report(phase: BenchPhase, message: string, profileId: string | null): void {
    if (!this.emit) return
    const left = (Object.keys(this.remainingByKind) as StepKind[]).reduce((sum, k) => sum + this.remainingByKind[k], 0)
    this.emit({
      phase,
      message,
      profileId,
      step: Math.min(this.done + 1, this.done + left),
      totalSteps: this.done + left,
      elapsedMs: this.elapsedMs,
      remainingMs: this.estimateMs(),
    })
  }

  private estimateMs(): number | null {
    if (this.done === 0) return null
    let ms = 0
    for (const k of Object.keys(this.remainingByKind) as StepKind[]) {
      const s = this.seen[k]
      ms += this.remainingByKind[k] * (s.n > 0 ? s.ms / s.n : this.guessMs[k])
    }
    return Math.round(ms)
  }
}
