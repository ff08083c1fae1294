import type { LaunchSpec } from '../contract/commands'
import type { ProblemFix } from '../contract/problem'
import type { ServerStatus } from '../contract/server-state'
import type { PreflightFailure } from './preflight'
import type { ListenPlan } from './launch-args'
import type { PidFiles } from './pid-file'
import type { StopOptions } from './process-tree'
import type { RestartPolicyOptions } from './restart-policy'
import type { WatchdogOptions, WatchdogTick } from './watchdog-policy'
import type { AwakeClock } from '../lib/awake-clock'
import type { IdleBeat } from '../lib/idle-beat'

/** What a ServerSupervisor is built with: everything but home has a default. */
export interface SupervisorOptions {
  /** Folder for the pid files (run/) and the server log (logs/). */
  readonly home: string
  /**
   * Which server of this process it supervises, for its pid file and log (logs/llama-server-<name>.log): a pinned
   * profile's id; absent for the main server (logs/llama-server.log).
   */
  readonly serverName?: string
  readonly readyTimeoutMs?: number
  readonly healthIntervalMs?: number
  readonly healthTimeoutMs?: number
  readonly restartPolicy?: RestartPolicyOptions
  readonly stop?: StopOptions
  /** Lines kept in memory for the log view and for diagnosis. */
  readonly logCapacity?: number
  /** How often a `-hf` launch's download is looked at in the cache (default 500 ms). */
  readonly downloadPollMs?: number
  /** Where a server listens when its command does not say (asked at each launch); a free port by default. */
  readonly listen?: () => ListenPlan
  /** Where the pid files go (tests inject a slow disk); <home>/run by default. */
  readonly pidFiles?: PidFiles
  /**
   * Whether a binary is offered llama-server's child channel (child-channel.ts), asked at each launch with the
   * binary's path; offered to every binary by default (one without it never confirms it and runs as before).
   */
  readonly childChannel?: (exe: string) => Promise<boolean>
  /** The watchdog after ready (asked at each ready, so a settings change applies to the next); DEFAULT_WATCHDOG by default. */
  readonly watchdog?: WatchdogOptions | (() => WatchdogOptions)
  /** Awake time (made once at composition, told of sleeps); the process's system clock by default. */
  readonly clock?: AwakeClock
  /** The idle beat the watchdog's idle pauses keep to (one wake with the core's tick); the process's by default. */
  readonly beat?: IdleBeat
  /** A fix for a failure found before the spawn (a model file gone: pick it, or the one found elsewhere); none by default. */
  readonly failureFix?: (failure: PreflightFailure, spec: LaunchSpec) => Promise<FailureFix | null>
}

/** A failure's one-click way out, found by whoever knows the profiles (the core): the fix, and what made it possible. */
export interface FailureFix {
  readonly fix: ProblemFix
  /** What was found, said after the failure ("Found moved.gguf in Downloads."); null when nothing was looked for. */
  readonly found: string | null
}

/** The events a ServerSupervisor emits (on()). */
export interface SupervisorEvents {
  state: (status: ServerStatus) => void
  log: (line: string) => void
  /** One watchdog tick on a ready server: what it saw, and the misses in a row after it. */
  watchdog: (tick: WatchdogTick, misses: number) => void
}
