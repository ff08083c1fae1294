import { ClockJump, SYSTEM_CLOCKS, type Clocks } from './clock-jump'

/** An exit or a hang within this much awake time after a resume is the sleep's doing, not the server's (the CUDA context broke). */
export const AFTER_RESUME_MS = 60_000

/** How far the wall clock may drift from awake time before wallOf follows it (sub-millisecond jitter would change every status). */
const WALL_DRIFT_MS = 1000

/**
 * The time the machine was awake: what uptime, load times, readiness deadlines and the restart policy's windows
 * count, so that the hours of a lid close never become a figure. One per process, made at composition and handed
 * to whoever turns time into a figure.
 *
 * It runs on the monotonic clock, which on Linux and macOS stands still while the machine sleeps; where it counts the
 * sleep too (Windows' QueryPerformanceCounter may), the app's powerMonitor `suspend`/`resume` tell the span, which is
 * left out. A resume is also seen, without any timer, when a reading finds wall time far ahead of monotonic time
 * since the last one (the CLI's only signal).
 */
export class AwakeClock {
  private excludedMs = 0
  /** The monotonic time at `suspend`, until `resume`. */
  private suspendedAtMono: number | null = null
  /** The clocks showed the resume of the sleep that `suspend` began before its `resume` came: that one is not told again. */
  private toldBeforeResume = false
  private lastResumeAt: number | null = null
  /** Wall ms minus awake ms, as wallOf last took it. */
  private wallOffset: number | null = null
  private readonly jump: ClockJump
  private readonly listeners = new Set<() => void>()

  constructor(private readonly clocks: Clocks = SYSTEM_CLOCKS) {
    this.jump = new ClockJump(clocks)
    this.jump.check()
  }

  /** Awake ms on a scale of its own: the difference of two readings is the time the machine was awake between them. */
  now(): number {
    if (this.jump.check() !== null) {
      this.toldBeforeResume = this.suspendedAtMono !== null
      this.woke()
    }
    return this.awake()
  }

  /** A monotonic stamp (performance.now()) in awake ms: exact for stamps taken since the last resume. */
  ofMono(monoMs: number): number {
    this.now()
    return monoMs - this.excludedMs
  }

  /**
   * Epoch ms for an awake instant: as far before the wall clock's now as it lies before now() in awake time. The
   * offset between the two clocks is kept until it moves by more than a second (a sleep, a clock set), so the same
   * instant reads the same between two statuses.
   */
  wallOf(awakeMs: number): number {
    const current = this.clocks.wall() - this.now()
    if (this.wallOffset === null || Math.abs(current - this.wallOffset) > WALL_DRIFT_MS) this.wallOffset = Math.round(current)
    return Math.round(awakeMs + this.wallOffset)
  }

  /** The machine is about to sleep (powerMonitor `suspend`). */
  suspended(): void {
    this.suspendedAtMono ??= this.clocks.mono()
  }

  /** The machine woke (powerMonitor `resume`): whatever the monotonic clock counted since `suspend` is left out. */
  resumed(): void {
    const mono = this.clocks.mono()
    if (this.suspendedAtMono !== null) this.excludedMs += Math.max(0, mono - this.suspendedAtMono)
    this.suspendedAtMono = null
    this.jump.check() // the jump of this sleep, if the clocks show one, is this resume: not a second one
    if (!this.toldBeforeResume) this.woke()
    this.toldBeforeResume = false
  }

  /** Follows a source of sleep events (the app's powerMonitor through PowerEvents); returns the unsubscribe. */
  follow(events: { onSuspend?(listener: () => void): () => void; onResume?(listener: () => void): () => void }): () => void {
    const offs = [events.onSuspend?.(() => this.suspended()), events.onResume?.(() => this.resumed())]
    return () => offs.forEach((off) => off?.())
  }

  /** Calls `listener` at each resume (told by powerMonitor or seen in the clocks); returns its unsubscribe. */
  onResume(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Whether the machine woke after `sinceAwakeMs` and at most AFTER_RESUME_MS of awake time ago. */
  wokeRecently(sinceAwakeMs: number): boolean {
    const now = this.now()
    return this.lastResumeAt !== null && this.lastResumeAt >= sinceAwakeMs && now - this.lastResumeAt <= AFTER_RESUME_MS
  }

  private awake(): number {
    return this.clocks.mono() - this.excludedMs
  }

  private woke(): void {
    this.lastResumeAt = this.awake()
    for (const listener of [...this.listeners]) listener()
  }
}

/** The system's clock, for code that is not handed one (a default, never two in one process's composition). */
export const SYSTEM_AWAKE_CLOCK = new AwakeClock()
