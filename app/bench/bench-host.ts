import type { LaunchSpec } from '../contract/commands'
import type { ServerStatus } from '../contract/server-state'
import type { AppSettings } from '../contract/settings'
import type { Snapshot } from '../contract/snapshot'

/**
 * What a bench needs from the app that runs it (the core provides it): start
 * a launch, read its state, stop it, and sample the live snapshot. A port, so
 * bench/ never depends on the core that depends on bench/.
 */
export interface BenchHost {
  readonly settings: Pick<AppSettings, 'gpuTemperatureWarnC' | 'vramHeadroomMiB'>
  snapshot(): Snapshot
  /** Starts `spec` (stopping another launch first) and resolves once it is ready or failed. */
  startSpec(spec: LaunchSpec): Promise<ServerStatus>
  readonly server: BenchServer
}

/** The running llama-server, as a bench reads and stops it. */
export interface BenchServer {
  getStatus(): ServerStatus
  /** The spec of the launch that is running or restarting, else null. */
  getLaunchSpec(): LaunchSpec | null
  /** Aborted when the running server stops (requests to it end with it); null when none runs. */
  getRequestSignal(): AbortSignal | null
  stop(): Promise<ServerStatus>
}
