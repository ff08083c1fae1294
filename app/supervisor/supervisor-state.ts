import type { LaunchSpec } from '../contract/commands'
import type { DownloadInfo, ExitInfo, ServerLoadProgress, ServerProcess, ServerStatus } from '../contract/server-state'

/**
 * The supervisor's state, one record per state with only the fields that state has: a process while one runs
 * (starting has none until the spawn), a ready time only while ready or sleeping, a download only while
 * downloading, the exit that ended the run in the failed states. Leaving a state drops its fields; no field
 * has to be reset by hand.
 */
export type SupervisorState =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'starting'; readonly process: ServerProcess | null }
  | { readonly kind: 'downloading'; readonly process: ServerProcess; readonly download: DownloadInfo }
  /** progress: the server's own, from its child channel; absent while it has said nothing (or has no channel). */
  | { readonly kind: 'loading'; readonly process: ServerProcess; readonly progress?: ServerLoadProgress | null }
  /** readySince: awake ms (AwakeClock) when this process became ready (a sleeping server keeps it: the same process). */
  | { readonly kind: 'ready'; readonly process: ServerProcess; readonly readySince: number }
  /** waking: the reload's progress while a request wakes it (channel only). */
  | { readonly kind: 'sleeping'; readonly process: ServerProcess; readonly readySince: number; readonly waking?: ServerLoadProgress | null }
  | { readonly kind: 'stopping'; readonly process: ServerProcess }
  /** restartAt: awake ms (AwakeClock) when `timer` starts the spec again. */
  | { readonly kind: 'backoff'; readonly exit: ExitInfo; readonly restartAt: number; readonly timer: NodeJS.Timeout }
  | { readonly kind: 'crashloop'; readonly exit: ExitInfo }
  | { readonly kind: 'errored'; readonly exit: ExitInfo }

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

/**
 * The contract's status of a state: the state's own fields plus the launch's and the last exit. `toWall` turns the
 * state's awake times into the contract's epoch ms (AwakeClock.wallOf: uptime and countdowns leave out any sleep).
 */
export function statusOf(
  state: SupervisorState,
  session: LaunchSession | null,
  lastExit: ExitInfo | null,
  toWall: (awakeMs: number) => number = (t) => t,
): ServerStatus {
  const common = { profileId: session?.spec.profileId ?? null, exe: session?.exe ?? null, lastExit, restarts: session?.restarts ?? 0 }
  const noProcess = { pid: null, host: null, port: null }
  switch (state.kind) {
    case 'stopped':
      return { ...common, ...noProcess, state: state.kind }
    case 'starting':
      return { ...common, ...(state.process ?? noProcess), state: state.kind }
    case 'downloading':
      return { ...common, ...state.process, state: state.kind, download: state.download }
    case 'loading':
      return { ...common, ...state.process, state: state.kind, progress: state.progress ?? null }
    case 'stopping':
      return { ...common, ...state.process, state: state.kind }
    case 'ready':
      return {
        ...common,
        ...state.process,
        state: state.kind,
        readySince: toWall(state.readySince),
        sleepIdleSeconds: session?.sleepIdleSeconds ?? null,
      }
    case 'sleeping':
      return {
        ...common,
        ...state.process,
        state: state.kind,
        readySince: toWall(state.readySince),
        sleepIdleSeconds: session?.sleepIdleSeconds ?? null,
        waking: state.waking ?? null,
      }
    case 'backoff':
      return { ...common, ...noProcess, lastExit: state.exit, state: state.kind, restartAt: toWall(state.restartAt) }
    case 'crashloop':
    case 'errored':
      return { ...common, ...noProcess, lastExit: state.exit, state: state.kind }
  }
}
