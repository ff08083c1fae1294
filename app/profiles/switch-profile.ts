import type { LaunchSpec } from '../contract/commands'
import type { PlacementSettings } from '../contract/snapshot'
import { servesRequests, type FailureKind, type ServerStatus } from '../contract/server-state'
import { blockingProblems, type FlagProblem } from './flag-check'
import { ProfileLaunchError, resolveProfileLaunch } from './resolve-launch'
import { ProfileStore } from './store'

export interface SwitchTimings {
  /** Reading the profile, detecting (or recalling) the engine, checking flags. */
  readonly resolveMs: number
  /** The old server's stop, until its exit. */
  readonly stopMs: number
  /** Waiting for GPU memory to come back (0 without a waiter). */
  readonly gpuWaitMs: number
  /** The new server's start, until ready or failed. */
  readonly startMs: number
  /** Recording the active profile. */
  readonly recordMs: number
}

/** A launch that ran out of GPU memory and was started again with a safer placement (not stored in the profile). */
/** An out-of-memory load that no safer placement fits: the sentence with the numbers and what is left, the long reason. */
export interface OomNoFit {
  readonly noFit: { readonly sentence: string; readonly details: string }
}

export interface PlacementRetry {
  /** The arguments it runs with now (the binary not included). */
  readonly args: readonly string[]
  /** One sentence: what ran out, what was changed. */
  readonly sentence: string
  /** The profile's typed fields that would keep this placement. */
  readonly settings: PlacementSettings
}

export type SwitchResult =
  | {
      readonly ok: true
      readonly profileId: string
      readonly previousProfileId: string | null
      readonly status: ServerStatus
      readonly timings: SwitchTimings
      readonly warnings: readonly FlagProblem[]
      readonly retry?: PlacementRetry
    }
  | {
      readonly ok: false
      readonly profileId: string
      /** The profile to go back to (one click): the one active before the switch. */
      readonly rollbackProfileId: string | null
      readonly reason: string
      readonly problems: readonly FlagProblem[]
      readonly status: ServerStatus
      readonly timings: SwitchTimings | null
      /** Out of GPU memory with no safer placement that fits: why, with the numbers (then `reason` is its sentence). */
      readonly noFit?: OomNoFit['noFit']
    }

/** The one server a switch stops and starts (the core's supervisor). */
export interface SwitchableServer {
  getStatus(): ServerStatus
  stop(): Promise<ServerStatus>
  start(spec: LaunchSpec): Promise<ServerStatus>
}

export interface SwitchOptions {
  /** Waits until the GPU memory of the old server is released (with a deadline); the telemetry owner provides it. */
  readonly waitForGpuRelease?: () => Promise<void>
  /**
   * After a load that ran out of GPU memory: a placement that fits the GPU's
   * free memory now, why none does (no retry), or null. One retry at most; the profile is not changed.
   */
  readonly saferPlacementAfterOom?: (args: readonly string[]) => Promise<PlacementRetry | OomNoFit | null>
}

const OUT_OF_MEMORY: ReadonlySet<FailureKind> = new Set([
  'out-of-memory',
  'out-of-memory-weights',
  'out-of-memory-kv',
  'out-of-memory-compute',
])

/** Whether a start ended because the load ran out of GPU memory (any backend's wording: see diagnose.ts). */
export function endedOutOfMemory(status: ServerStatus): boolean {
  return status.state === 'errored' && status.lastExit?.kind != null && OUT_OF_MEMORY.has(status.lastExit.kind)
}

/**
 * Switches the one running server to another profile: check its flags first
 * (a profile the binary would reject never stops the running server), stop the
 * old server and wait for its exit (and for GPU memory, when a waiter is
 * given), start the new one. The active profile is recorded only on success;
 * on failure the old one stays recorded as active, one click away.
 */
export async function switchProfile(
  supervisor: SwitchableServer,
  home: string,
  idOrName: string,
  options: SwitchOptions = {},
): Promise<SwitchResult> {
  const t0 = performance.now()
  const store = await ProfileStore.open(home)
  const before = store.file.activeProfileId
  let resolved
  try {
    resolved = await resolveProfileLaunch(home, idOrName)
  } catch (err) {
    if (!(err instanceof ProfileLaunchError)) throw err
    return {
      ok: false,
      profileId: idOrName,
      rollbackProfileId: before,
      reason: err.message,
      problems: [],
      status: supervisor.getStatus(),
      timings: null,
    }
  }
  const blocking = blockingProblems(resolved.problems)
  if (blocking.length > 0) {
    return {
      ok: false,
      profileId: resolved.profile.id,
      rollbackProfileId: before,
      reason: `flags that ${resolved.binaryInfo.fork} rejects`,
      problems: blocking,
      status: supervisor.getStatus(),
      timings: null,
    }
  }
  const t1 = performance.now()
  await supervisor.stop()
  const t2 = performance.now()
  if (options.waitForGpuRelease) await options.waitForGpuRelease()
  const t3 = performance.now()
  let status = await supervisor.start(resolved.spec)
  let retry: PlacementRetry | undefined
  let noFit: OomNoFit | undefined
  if (endedOutOfMemory(status) && options.saferPlacementAfterOom) {
    const safer = await options.saferPlacementAfterOom(resolved.spec.args)
    if (safer && 'noFit' in safer) noFit = safer
    else if (safer) {
      retry = safer
      status = await supervisor.start({ ...resolved.spec, args: [...safer.args] })
    }
  }
  const t4 = performance.now()
  // A server can fall asleep before start() returns (a short --sleep-idle-seconds): it started.
  const ok = servesRequests(status.state)
  if (ok) await store.setActive(resolved.profile.id)
  const t5 = performance.now()
  const timings = { resolveMs: t1 - t0, stopMs: t2 - t1, gpuWaitMs: t3 - t2, startMs: t4 - t3, recordMs: t5 - t4 }
  if (ok)
    return {
      ok: true,
      profileId: resolved.profile.id,
      previousProfileId: before,
      status,
      timings,
      warnings: resolved.problems,
      ...(retry ? { retry } : {}),
    }
  const reason = status.lastExit?.reason ?? `the server ended ${status.state}`
  return {
    ok: false,
    profileId: resolved.profile.id,
    rollbackProfileId: before,
    reason: retry ? `${reason}, also after a retry (${retry.sentence})` : (noFit?.noFit.sentence ?? reason),
    problems: [],
    status,
    timings,
    ...(noFit ? noFit : {}),
  }
}
