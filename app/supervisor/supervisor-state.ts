import type { LaunchSpec } from '../contract/commands'
import type { DownloadInfo } from '../contract/server-state'

/**
 * The supervisor's state, one record per state with only the fields that state has: a restart time
 * exists only in backoff, a ready time only while ready or sleeping, a download only while downloading.
 * Leaving a state drops its fields; no field has to be reset by hand.
 */
export type SupervisorState =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'starting' }
  | { readonly kind: 'downloading'; readonly download: DownloadInfo }
  | { readonly kind: 'loading' }
  /** readySince: epoch ms when this process became ready (a sleeping server keeps it: the same process). */
  | { readonly kind: 'ready'; readonly readySince: number }
  | { readonly kind: 'sleeping'; readonly readySince: number }
  | { readonly kind: 'stopping' }
  /** restartAt: epoch ms when `timer` starts the spec again. */
  | { readonly kind: 'backoff'; readonly restartAt: number; readonly timer: NodeJS.Timeout }
  | { readonly kind: 'crashloop' }
  | { readonly kind: 'errored' }

/**
 * One user start or restart and the automatic restarts that follow it. A new user start replaces it whole,
 * which is what resets the restart count, the unstable exits and the remembered start failure.
 */
export interface LaunchSession {
  readonly spec: LaunchSpec
  /** The binary run: the spec's, then the one preflight resolved. */
  readonly exe: string
  /** The launch's --sleep-idle-seconds, read once (getStatus runs every tick). */
  readonly sleepIdleSeconds: number | null
  /** Automatic restarts in this session. */
  readonly restarts: number
  /** Exits in a row that came before the restart policy's stable time. */
  readonly unstableExits: number
  /** Why the last start failed before ready (cleared by ready): a retryOnce failure seen twice ends the run. */
  readonly startFailure: string | null
}

export function newSession(spec: LaunchSpec, sleepIdleSeconds: number | null): LaunchSession {
  return { spec, exe: spec.exe, sleepIdleSeconds, restarts: 0, unstableExits: 0, startFailure: null }
}

/** When the current process became ready, in the states that have one. */
export function readySinceOf(state: SupervisorState): number | null {
  return state.kind === 'ready' || state.kind === 'sleeping' ? state.readySince : null
}
