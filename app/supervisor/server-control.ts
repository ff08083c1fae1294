import type { LaunchSpec } from '../contract/commands'
import type { ServerStatus } from '../contract/server-state'
import type { ServerSupervisor } from './supervisor'

/**
 * The core's llama-server as its users (the CLI, benches, the engine update's
 * gate, tests) read and stop it: the one view, for CliCore and BenchHost alike. Starting goes through the core (`startSpec`, `server:start`), so a launch
 * is always seen by the core's own bookkeeping; the supervisor itself stays
 * private to the core.
 */
export interface ServerControl {
  getStatus(): ServerStatus
  /** The spec of the launch that is running or restarting (the user's, before --host/--port), else null. */
  getLaunchSpec(): LaunchSpec | null
  /** The newest log lines, oldest first. */
  getLogs(maxLines?: number): readonly string[]
  /** Aborted when the running server stops (requests to it end with it); null when none runs. */
  getRequestSignal(): AbortSignal | null
  /** Stops the server and resolves once its process has exited. */
  stop(): Promise<ServerStatus>
}

/** A frozen view of the supervisor with only these methods: a caller cannot reach the rest. */
export function serverControl(supervisor: ServerSupervisor): ServerControl {
  return Object.freeze({
    getStatus: () => supervisor.getStatus(),
    getLaunchSpec: () => supervisor.getLaunchSpec(),
    getLogs: (maxLines?: number) => supervisor.getLogs(maxLines),
    getRequestSignal: () => supervisor.getRequestSignal(),
    stop: () => supervisor.stop(),
  })
}
