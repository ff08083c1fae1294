import type { LaunchSpec } from '../contract/commands'
import type { ServerStatus } from '../contract/server-state'
import type { AppSettings } from '../contract/settings'
import type { Snapshot } from '../contract/snapshot'
import type { ServerControl } from '../supervisor/server-control'

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
  /** The same read-and-stop view of the server the CLI gets (CliCore.server). */
  readonly server: ServerControl
  /** The GPU's energy in J between two epoch ms (the core's energy meter); absent or null where none is measured. */
  energyJ?(fromMs: number, toMs: number): number | null
  /**
   * The bench reads the figures as they come (free VRAM decides what it runs): until the returned function is called,
   * the host samples at its watched pace, as for an open dashboard, instead of its idle one.
   */
  watch?(): () => void
}
