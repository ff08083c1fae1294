import type { LaunchSpec } from '../../../app/contract/commands'
import type { ServerStatus } from '../../../app/contract/server-state'
import type { Snapshot } from '../../../app/contract/snapshot'
import type { Warning } from '../../../app/contract/warnings'
import type { CliCore, CliEvents } from '../../../app/core/cli-core'
import { Listeners } from '../../../app/lib/listeners'
import { buildSnapshot } from '../../../app/snapshot/build-snapshot'
import { NEVER_STARTED, serverStatus } from '../../helpers/server-status'
import type { CliCoreFactory } from '../../../app/cli/cli-core-factory'

/**
 * A core the test drives by hand: it publishes a state or a snapshot only when
 * told to, so whatever the CLI prints can be traced to one of its events.
 */
export class ScriptedCliCore implements CliCore {
  readonly settings = { port: 8080 }
  status: ServerStatus = NEVER_STARTED
  disposed = false
  readonly started: (LaunchSpec | string)[] = []
  /** What the next snapshots carry as warnings (the live advisor's, in a real core). */
  warnings: Warning[] = []
  private readonly events = new Listeners<CliEvents>()
  readonly server = {
    getStatus: () => this.status,
    getLaunchSpec: () => null,
    getLogs: () => [],
    getRequestSignal: () => null,
    stop: async () =>
      this.setState(
        serverStatus('stopped', {
          profileId: this.status.profileId,
          lastExit: { code: 0, signal: null, reason: null, hint: null, kind: null, problem: null },
        }),
      ),
  }

  /** The factory a CliContext takes. */
  readonly factory: CliCoreFactory = async () => this

  on<E extends keyof CliEvents>(event: E, listener: CliEvents[E]): () => void {
    return this.events.on(event, listener)
  }

  snapshot(time = Date.now()): Snapshot {
    return buildSnapshot(this.status, { warnings: this.warnings }, time)
  }

  /** Moves the server to a state and publishes it, as the supervisor does. */
  setState(status: ServerStatus): ServerStatus {
    this.status = status
    this.events.emit('server:state-changed', this.status)
    return this.status
  }

  /** One tick of the core's cadence. */
  tick(time: number): Snapshot {
    const snapshot = this.snapshot(time)
    this.events.emit('snapshot', snapshot)
    return snapshot
  }

  /** No pinned profiles in the scripted runs. */
  async servePinned(): Promise<void> {}

  async startSpec(spec: LaunchSpec): Promise<ServerStatus> {
    this.started.push(spec)
    return this.status
  }

  async startProfile(profileId: string): Promise<{ ok: true; value: ServerStatus }> {
    this.started.push(profileId)
    return { ok: true, value: this.status }
  }

  async startEndpoint(): Promise<never> {
    throw new Error('the scripted core has no endpoint')
  }

  onEndpointRequest(): () => void {
    return () => {}
  }

  async dispose(): Promise<void> {
    this.disposed = true
    if (this.status.state !== 'stopped') await this.server.stop()
  }
}
