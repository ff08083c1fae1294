import type { CommandChannels, EventChannels, LaunchSpec } from '../contract/commands'
import type { EndpointRequestFigures } from '../contract/endpoint'
import type { ServerStatus } from '../contract/server-state'
import type { AppSettings } from '../contract/settings'
import type { Snapshot } from '../contract/snapshot'
import type { EndpointOptions, ListenResult } from '../endpoint/endpoint-listener'
import type { ServerControl } from '../supervisor/server-control'

/** The core's events a command-line view renders: the server's state, and the snapshot of each tick of the core's one cadence. */
export type CliEvents = Pick<EventChannels, 'server:state-changed' | 'snapshot'>

/**
 * What the CLI's `run` and `serve` need from the core: start a launch (a
 * command line or a profile), its events, the server to read and stop, the
 * endpoint. The CLI renders on the core's events and keeps no clock of its own.
 */
export interface CliCore {
  readonly settings: Pick<AppSettings, 'port'>
  readonly server: ServerControl
  on<E extends keyof CliEvents>(event: E, listener: CliEvents[E]): () => void
  /** A fresh snapshot, for a line printed on a state change or at the end. */
  snapshot(): Snapshot
  /** Runs a command line directly (`run --cmd`). */
  startSpec(spec: LaunchSpec): Promise<ServerStatus>
  /** Starts a stored profile, as the app's start button does. */
  startProfile: CommandChannels['server:start']
  /** Starts the pinned profiles' servers beside the active one (and follows the pins until dispose). */
  servePinned(): Promise<void>
  /** Opens the endpoint and writes the record `profiles use` finds it by (naming the key file clients must use). */
  startEndpoint(options: Partial<EndpointOptions> & { readonly apiKeyFile?: string | null }): Promise<ListenResult>
  onEndpointRequest(listener: (figures: EndpointRequestFigures) => void): () => void
  dispose(): Promise<void>
}
