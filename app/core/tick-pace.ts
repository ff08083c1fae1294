/**
 * How often the core ticks (telemetry sample, live advisor, snapshot) and how often a GPU reader with
 * its own clock (nvidia-smi's stream) samples. While nobody watches (no dashboard shown, no fixed
 * cadence such as `run --interval`) and no request runs, a ready server needs only the warnings, and
 * 2 s keeps the low-VRAM warning within a few seconds (3 low samples: 4 s after the first). Measured
 * with `npm run bench idle`: the 1 s tick was the largest part of an idle server's cost.
 */
export const IDLE_TICK_MS = 2000

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
