/**
 * How often the core ticks (telemetry sample, live advisor, snapshot) and how often a GPU reader with
 * its own clock (nvidia-smi's stream) samples. While nobody watches (no dashboard shown, no fixed
 * cadence such as `run --interval`) and no request runs, a ready server needs only the warnings: at 5 s
 * a first low-VRAM sample comes 0–5 s after the VRAM runs low, and the two more the warning needs come at
 * the usual pace (WarningConfirmation); with nvidia-smi's stream the tick follows its lines (IDLE_GPU_BACKSTOP_MS).
 * Measured with `npm run bench idle`: each tick costs the app about 1 ms of CPU on 2 busy cores, and
 * each line of nvidia-smi's stream a wake of nvidia-smi and of the app.
 */
export const IDLE_TICK_MS = 5000

/**
 * The same while no GPU figures come (no NVIDIA GPU, GPU monitoring off): with neither GPU figures nor a
 * request no warning can arise, so the clock ticks once a minute; a request (the tracker's rate) or a
 * change of the server's state ticks at once.
 */
export const IDLE_NO_GPU_TICK_MS = 60_000

/**
 * While idle and unwatched with GPU figures on their own clock (nvidia-smi's stream, one line per
 * IDLE_TICK_MS), the core ticks on each line instead of on a timer of its own: one wake per period instead
 * of two, and the advisor sees each line as it comes. The timer stays as a backstop, armed this long and not
 * moved by the lines (each move cost a wake). A stream that breaks says so at once (its reader's exit or
 * watchdog ticks the core, whose pace then goes back to the timer); the backstop covers anything else.
 */
export const IDLE_GPU_BACKSTOP_MS = 12 * IDLE_TICK_MS

export interface TickPace {
  /** The settings' pollIntervalMs, or the caller's fixed cadence. */
  readonly baseMs: number
  /** The caller asked for this cadence (`run --interval`, a test): it is kept as it is. */
  readonly fixed: boolean
  /** A dashboard or popover shows the figures. */
  readonly watched: boolean
  /** A request runs (the tracker's last snapshot said so). */
  readonly active: boolean
  /** GPU figures come, or may still come (the reader is opening); false once it is known there are none. */
  readonly gpuRead: boolean
  /** Fresh GPU figures come on the reader's own clock (nvidia-smi's stream, not stale). */
  readonly gpuStream: boolean
  /** A warning saw its first samples and waits for the rest (see WarningConfirmation): they come at the usual pace. */
  readonly confirming: boolean
}

/** The delay before the core's next tick. */
export function tickDelayMs(pace: TickPace): number {
  if (pace.fixed || pace.watched || pace.active || pace.confirming) return pace.baseMs
  if (followsGpuStream(pace)) return Math.max(pace.baseMs, IDLE_GPU_BACKSTOP_MS)
  return Math.max(pace.baseMs, pace.gpuRead ? IDLE_TICK_MS : IDLE_NO_GPU_TICK_MS)
}

/** Whether the core ticks on each line of the GPU stream rather than on its timer (see IDLE_GPU_BACKSTOP_MS). */
export function followsGpuStream(pace: TickPace): boolean {
  return pace.gpuStream && !pace.fixed && !pace.watched && !pace.active && !pace.confirming
}

/**
 * The period of nvidia-smi's stream: it changes with what is watched and while a warning is confirmed, not per
 * request, since a new period means a new nvidia-smi process.
 */
export function gpuIntervalMs(pace: Omit<TickPace, 'active' | 'gpuRead' | 'gpuStream'>): number {
  return pace.fixed || pace.watched || pace.confirming ? pace.baseMs : Math.max(pace.baseMs, IDLE_TICK_MS)
}

/**
 * How long an idle, unwatched core keeps the usual pace for a warning that saw its first samples (the low-VRAM
 * warning needs three), and how seldom: a reading that hovers at its threshold costs a few seconds of the usual pace
 * (and two nvidia-smi starts) a minute, no more.
 */
export const CONFIRM_MAX_MS = 12_000
export const CONFIRM_EVERY_MS = 60_000

/**
 * Whether the pace is hurried for a pending warning: idle and unwatched, its samples come 5 s apart, so a warning
 * needing three would show 10–15 s after the cause; hurried, 1–2 s after the first sample at the usual pace.
 */
export class WarningConfirmation {
  private since: number | null = null
  private endedAt = -Infinity

  /** `pending`: a warning waits for more samples now; `now`: monotonic ms. Returns whether to hurry. */
  update(pending: boolean, now: number): boolean {
    if (!pending) {
      if (this.since !== null) this.endedAt = now
      this.since = null
      return false
    }
    if (this.since !== null) return now - this.since < CONFIRM_MAX_MS
    if (now - this.endedAt < CONFIRM_EVERY_MS) return false
    this.since = now
    return true
  }
}
