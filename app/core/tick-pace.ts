/**
 * How often the core ticks (telemetry sample, live advisor, snapshot) and how often a GPU reader with
 * its own clock (nvidia-smi's stream) samples. While nobody watches (no dashboard shown, no fixed
 * cadence such as `run --interval`) and no request runs, a ready server needs only the warnings:
 * at 5 s the low-VRAM warning (3 low samples) comes 10–15 s after the VRAM runs low (4–6 s at 2 s); with
 * nvidia-smi's stream the tick follows its lines (IDLE_GPU_BACKSTOP_MS), so 10 s after the first low line.
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
}

/** The delay before the core's next tick. */
export function tickDelayMs(pace: TickPace): number {
  if (pace.fixed || pace.watched || pace.active) return pace.baseMs
  if (followsGpuStream(pace)) return Math.max(pace.baseMs, IDLE_GPU_BACKSTOP_MS)
  return Math.max(pace.baseMs, pace.gpuRead ? IDLE_TICK_MS : IDLE_NO_GPU_TICK_MS)
}

/** Whether the core ticks on each line of the GPU stream rather than on its timer (see IDLE_GPU_BACKSTOP_MS). */
export function followsGpuStream(pace: TickPace): boolean {
  return pace.gpuStream && !pace.fixed && !pace.watched && !pace.active
}

/**
 * The period of nvidia-smi's stream: it changes only with what is watched, not per request, since
 * a new period means a new nvidia-smi process.
 */
export function gpuIntervalMs(pace: Omit<TickPace, 'active' | 'gpuRead' | 'gpuStream'>): number {
  return pace.fixed || pace.watched ? pace.baseMs : Math.max(pace.baseMs, IDLE_TICK_MS)
}
