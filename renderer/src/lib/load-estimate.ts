/** How far a load has come against this profile's usual load time (pure, tested). */
export interface LoadEstimate {
  /** 0..0.99 of the usual time; never 1 before ready (the server decides when it is done). */
  readonly fraction: number | null
  /** The text beside the bar. */
  readonly text: string
  readonly overdue: boolean
}

const MAX_BEFORE_READY = 0.99

export function loadEstimate(elapsedMs: number, expectedMs: number | null, format: (ms: number) => string): LoadEstimate {
  if (expectedMs === null || expectedMs <= 0) return { fraction: null, text: format(elapsedMs), overdue: false }
  const overdue = elapsedMs > expectedMs * 1.25
  return {
    fraction: Math.min(MAX_BEFORE_READY, Math.max(0, elapsedMs / expectedMs)),
    text: overdue
      ? `${format(elapsedMs)}, longer than the usual ${format(expectedMs)}`
      : `${format(elapsedMs)} of about ${format(expectedMs)}`,
    overdue,
  }
}
