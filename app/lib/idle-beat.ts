/** The grid of the idle beat: the core's idle tick (IDLE_TICK_MS) and every longer idle pause keep to it. */
export const IDLE_BEAT_MS = 5000

/**
 * One clock for the timers of an idle app: the core's tick, the watchdog's pauses, the idle /slots poll. Each
 * wake of the process costs about 1 ms of CPU on the machines we measured, whatever little it then does, and
 * timers armed a few milliseconds apart wake it apart (seen with strace: the watchdog's timer, then the tick's
 * 10 ms later). Here a pause is rounded to the nearest beat of a fixed grid on the monotonic clock, and all
 * pauses that end on the same beat share one timer: one wake where there were three.
 *
 * A pause moves by at most half a beat (2.5 s), and only the first of a chain: a pause of a whole number of beats
 * armed on a beat ends on a beat. Pauses shorter than a beat (a busy server, a watched dashboard) are not moved.
 * One per process (SYSTEM_IDLE_BEAT); tests hand in their own.
 */
export class IdleBeat {
  /** The callbacks due at each beat (monotonic ms), and that beat's one timer. */
  private readonly beats = new Map<number, { readonly callbacks: Set<() => void>; readonly timer: NodeJS.Timeout }>()

  constructor(
    private readonly gridMs = IDLE_BEAT_MS,
    private readonly mono: () => number = () => performance.now(),
  ) {}

  /** The beat a pause of `ms` from now ends on: the nearest one, and never now or before. */
  beatAfter(ms: number, now = this.mono()): number {
    const grid = this.gridMs
    let beat = Math.round((now + ms) / grid) * grid
    if (beat - now < grid / 2) beat += grid
    return beat
  }

  /**
   * Calls `fn` after about `ms` (unref'd: it never keeps the process alive). Returns the cancel; a cancelled pause
   * is not called. Shorter than a beat: a plain timer of exactly `ms`.
   */
  after(ms: number, fn: () => void): () => void {
    if (ms < this.gridMs) {
      const timer = setTimeout(fn, ms)
      timer.unref()
      return () => clearTimeout(timer)
    }
    const now = this.mono()
    const beat = this.beatAfter(ms, now)
    let entry = this.beats.get(beat)
    if (!entry) {
      const timer = setTimeout(() => this.fire(beat), Math.max(0, beat - now))
      timer.unref()
      entry = { callbacks: new Set(), timer }
      this.beats.set(beat, entry)
    }
    // A callback of its own per pause: the same function paused twice is called twice.
    const callback = (): void => fn()
    entry.callbacks.add(callback)
    return () => {
      const current = this.beats.get(beat)
      if (!current?.callbacks.delete(callback) || current.callbacks.size > 0) return
      clearTimeout(current.timer)
      this.beats.delete(beat)
    }
  }

  /** Resolves after about `ms` (as after()), or at once when the signal aborts; never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve()
      const done = (): void => {
        cancel()
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const cancel = this.after(ms, done)
      signal?.addEventListener('abort', done, { once: true })
    })
  }

  /** How many beats have a timer armed (tests). */
  get armed(): number {
    return this.beats.size
  }

  private fire(beat: number): void {
    const entry = this.beats.get(beat)
    this.beats.delete(beat)
    for (const callback of entry?.callbacks ?? []) callback()
  }
}

/** The process's one idle beat. */
export const SYSTEM_IDLE_BEAT = new IdleBeat()
