/**
 * When to restart after an unexpected exit, and when to give up.
 *
 * An exit is "unstable" when the server never became ready or was ready for
 * less than stableAfterMs. Unstable exits in a row lengthen the backoff
 * (1, 2, 4 … s, capped); the maxUnstableExits-th in a row gives up
 * (crashloop). A run that stayed ready for stableAfterMs resets the count.
 */
export interface RestartPolicyOptions {
  readonly initialDelayMs: number
  readonly maxDelayMs: number
  readonly stableAfterMs: number
  readonly maxUnstableExits: number
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
  maxUnstableExits: 5,
}

export type RestartDecision =
  | { readonly action: 'restart'; readonly delayMs: number; readonly unstableExits: number }
  | { readonly action: 'give-up'; readonly unstableExits: number }

/**
 * @param unstableExitsBefore unstable exits in a row before this one
 * @param readyForMs how long this run was ready; null if it never was
 */
export function decideRestart(
  unstableExitsBefore: number,
  readyForMs: number | null,
  options: RestartPolicyOptions = DEFAULT_RESTART_POLICY,
): RestartDecision {
  const stable = readyForMs !== null && readyForMs >= options.stableAfterMs
  const unstableExits = stable ? 0 : unstableExitsBefore + 1
  if (unstableExits >= options.maxUnstableExits) return { action: 'give-up', unstableExits }
  return { action: 'restart', delayMs: backoffDelay(unstableExits, options), unstableExits }
}

/** Delay before the restart that follows the n-th unstable exit in a row (n ≥ 0). */
export function backoffDelay(unstableExits: number, options: RestartPolicyOptions = DEFAULT_RESTART_POLICY): number {
  const exponent = Math.max(0, unstableExits - 1)
  return Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.min(exponent, 30))
}

/**
 * Whether a start that failed before ready ends the run (errored, no restart):
 * a deterministic failure does; one marked retryOnce gets one more start first,
 * unless the start before failed for the same reason.
 * @param previousStartFailure the reason the previous start of this run failed before ready; null if it did not
 */
export function endsTheRun(
  d: { readonly deterministic: boolean; readonly retryOnce?: boolean; readonly reason: string },
  previousStartFailure: string | null,
): boolean {
  if (!d.deterministic) return false
  return !d.retryOnce || previousStartFailure === d.reason
}
