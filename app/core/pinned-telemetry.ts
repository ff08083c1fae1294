import { serverOrigin } from '../contract/client-url'
import type { PinnedGeneration } from '../contract/snapshot'
import { isServing, servesRequests, type ServerStatus, type ServerStatusOf } from '../contract/server-state'
import { GenerationTracker, resolveApiKey, threadsFromLog } from '../metrics'
import type { ServerSupervisor } from '../supervisor/supervisor'

/**
 * A pinned server's own generation figures, read as the active server's are (its /slots and its log): a tracker
 * while it serves, the last figures kept across a restart or a stop so that its row does not go blank.
 */
export class PinnedTelemetry {
  private tracker: GenerationTracker | null = null
  private starting = false
  private last: PinnedGeneration | null = null
  private readonly off: Array<() => void>

  constructor(
    private readonly supervisor: ServerSupervisor,
    private readonly profileId: string,
  ) {
    this.off = [supervisor.on('log', (line) => this.tracker?.feedLogLine(line)), supervisor.on('state', (status) => this.onState(status))]
  }

  /** Live tok/s while it generates and the last request's speeds; null before its first answered poll. */
  view(): PinnedGeneration | null {
    const tracker = this.tracker
    if (!tracker) return this.last && { ...this.last, active: false, tokensPerSecond: null }
    const s = tracker.snapshot()
    this.last = { active: s.active, tokensPerSecond: s.tokensPerSecond, last: s.last ?? this.last?.last ?? null }
    return this.last
  }

  async dispose(): Promise<void> {
    for (const off of this.off.splice(0)) off()
    await this.stopTracker()
  }

  private onState(status: ServerStatus): void {
    if (isServing(status) && !this.tracker && !this.starting) void this.startTracker(status)
    if (!servesRequests(status.state)) void this.stopTracker()
    this.tracker?.setAsleep(status.state === 'sleeping')
  }

  private async startTracker(status: ServerStatusOf<'ready' | 'sleeping'>): Promise<void> {
    this.starting = true
    try {
      const spec = this.supervisor.getLaunchSpec()
      const apiKey = spec ? await resolveApiKey(spec.args, spec.env ?? {}).catch(() => null) : null
      const now = this.supervisor.getStatus()
      if (!servesRequests(now.state) || now.pid !== status.pid || this.off.length === 0) return // replaced, stopped or disposed
      const tracker = new GenerationTracker({
        baseUrl: serverOrigin(status.host, status.port),
        apiKey,
        pollWhenIdle: (status.sleepIdleSeconds ?? null) === null,
        profileId: this.profileId,
        threads: threadsFromLog(this.supervisor.getLogs()),
      })
      this.tracker = tracker
      tracker.start(this.supervisor.getRequestSignal())
      tracker.setAsleep(now.state === 'sleeping')
    } finally {
      this.starting = false
    }
  }

  private async stopTracker(): Promise<void> {
    const tracker = this.tracker
    if (!tracker) return
    this.view() // keep its last figures
    this.tracker = null
    await tracker.stop()
    const last = tracker.snapshot().last // a record completed by the stop
    if (this.last && last) this.last = { ...this.last, last }
  }
}
