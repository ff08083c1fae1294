import type { LaunchSpec } from '../contract/commands'
import { launchInEffect, servesRequests, type ServerStatus } from '../contract/server-state'
import { sameLaunchSpec } from '../supervisor/same-launch'
import type { BenchHost } from './bench-host'
import { problem, type Problem } from '../contract/problem'

/** A bench, compare or tune was cancelled through its AbortSignal. */
export class BenchCancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message)
    this.name = 'BenchCancelledError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('bench', this.message)
  }
}

/** A server that failed to start for a bench (the reason is the supervisor's diagnosis). */
export class BenchStartError extends Error {
  constructor(
    message: string,
    readonly status: ServerStatus,
  ) {
    super(message)
    this.name = 'BenchStartError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('server', this.message, { details: this.status.lastExit?.problem?.details ?? null })
  }
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new BenchCancelledError()
}

/** What ran before a bench: restored afterwards, whether it succeeded, failed or was cancelled. */
export interface ServerState {
  /** The spec that was running (or restarting), or null when nothing ran. */
  readonly spec: LaunchSpec | null
  readonly profileId: string | null
}

export function captureServerState(core: BenchHost): ServerState {
  const status = core.server.getStatus()
  const running = launchInEffect(status.state)
  return { spec: running ? core.server.getLaunchSpec() : null, profileId: running ? status.profileId : null }
}

/**
 * Puts the server back as it was: the spec that ran before runs again (nothing
 * happens when it still runs), or what the bench started is stopped. An
 * earlier errored state is left alone so its reason stays visible.
 */
export async function restoreServerState(core: BenchHost, before: ServerState): Promise<ServerStatus> {
  if (before.spec) return core.startSpec(before.spec)
  const now = core.server.getStatus()
  if (launchInEffect(now.state)) return core.server.stop()
  return now
}

/**
 * Starts (or keeps, when the same spec already runs) a server and waits until
 * it is ready. A cancel while it loads stops it; a failed start throws with the
 * supervisor's diagnosis.
 */
export async function startForBench(
  core: BenchHost,
  spec: LaunchSpec,
  signal: AbortSignal,
): Promise<{ status: ServerStatus; reused: boolean; loadMs: number }> {
  throwIfCancelled(signal)
  const before = core.server.getStatus()
  const running = core.server.getLaunchSpec()
  const reused = servesRequests(before.state) && running !== null && sameLaunchSpec(running, spec)
  const onAbort = (): void => void core.server.stop()
  signal.addEventListener('abort', onAbort, { once: true })
  const t0 = performance.now()
  try {
    const status = await core.startSpec(spec)
    throwIfCancelled(signal)
    if (!servesRequests(status.state)) {
      const exit = status.lastExit
      throw new BenchStartError(
        `${spec.profileId}: llama-server did not start (${exit?.reason ?? status.state})${exit?.hint ? ` — ${exit.hint}` : ''}`,
        status,
      )
    }
    return { status, reused, loadMs: performance.now() - t0 }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** Stops the server (not cancellable: it is part of leaving things clean). */
export async function stopServer(core: BenchHost): Promise<void> {
  const s = core.server.getStatus()
  if (launchInEffect(s.state)) await core.server.stop()
}
