/**
 * How often the core ticks (telemetry sample, live advisor, snapshot) and how often a GPU reader with
 * its own clock (nvidia-smi's stream) samples. While nobody watches (no dashboard shown, no fixed
 * cadence such as `run --interval`) and no request runs, a ready server needs only the warnings:
 * at 5 s the low-VRAM warning (3 low samples) comes 10–15 s after the VRAM runs low (4–6 s at 2 s).
 * Measured with `npm run bench idle`: each tick costs the app about 1 ms of CPU on 2 busy cores, and
 * each line of nvidia-smi's stream a wake of nvidia-smi and of the app.
 */
export const IDLE_TICK_MS = 5000

export interface TickPace {
  /** The settings' pollIntervalMs, or the caller's fixed cadence. */
  readonly baseMs: number
  /** The caller asked for this cadence (`run --interval`, a test): it is kept as it is. */
  readonly fixed: boolean
  /** A dashboard or popover shows the figures. */
  readonly watched: boolean
  /** A request runs (the tracker's last snapshot said so). */
  readonly active: boolean
}

/** The delay before the core's next tick. */
export function tickDelayMs(pace: TickPace): number {
  return pace.fixed || pace.watched || pace.active ? pace.baseMs : Math.max(pace.baseMs, IDLE_TICK_MS)
}

/**
 * The period of nvidia-smi's stream: it changes only with what is watched, not per request, since
 * a new period means a new nvidia-smi process.
 */
export function gpuIntervalMs(pace: Omit<TickPace, 'active'>): number {
  return pace.fixed || pace.watched ? pace.baseMs : Math.max(pace.baseMs, IDLE_TICK_MS)
}
