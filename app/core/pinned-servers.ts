import { problem } from '../contract/problem'
import type { ServerStatus } from '../contract/server-state'
import type { PinnedServerView } from '../contract/snapshot'
import { asSentence } from '../contract/wording'
import { Listeners } from '../lib/listeners'
import { blockingProblems } from '../profiles/flag-check'
import { ProfileLaunchError, resolveProfileLaunch } from '../profiles/resolve-launch'
import { ProfileStore } from '../profiles/store'
import { ServerSupervisor, type SupervisorOptions } from '../supervisor/supervisor'
import type { WatchdogOptions } from '../supervisor/watchdog-policy'
import { PinnedTelemetry } from './pinned-telemetry'

export interface PinnedServersOptions {
  readonly home: string
  readonly supervisor?: Omit<SupervisorOptions, 'home' | 'serverName' | 'listen' | 'watchdog'>
  readonly watchdog: () => WatchdogOptions
}

interface PinnedEvents {
  /** A pinned server's state changed (or one was added or removed: then its last status). */
  state: (profileId: string, status: ServerStatus) => void
  /** One line of a pinned server's log (its file is logs/llama-server-<id>.log). */
  log: (profileId: string, line: string) => void
}

interface Pinned {
  readonly supervisor: ServerSupervisor
  readonly telemetry: PinnedTelemetry
  name: string
  /** Why it could not be started (the profile, its engine or its flags); null when it was started. */
  refusal: string | null
  /** Stops following its supervisor's state and log. */
  readonly off: () => void
}

/**
 * The pinned profiles' servers: one supervisor each (its own llama-server on a private 127.0.0.1 port, its own
 * restart policy, pid file and log named by the profile id), beside the core's main one. While serving, the set
 * follows profiles.json: a pinned profile starts, an unpinned one stops. The switch scheduler never touches them.
 */
export class PinnedServers {
  private readonly servers = new Map<string, Pinned>()
  private readonly events = new Listeners<PinnedEvents>()
  private serving = false
  /** One change of the set at a time, in order. */
  private queue: Promise<void> = Promise.resolve()

  constructor(private readonly options: PinnedServersOptions) {}

  on<K extends keyof PinnedEvents>(event: K, listener: PinnedEvents[K]): () => void {
    return this.events.on(event, listener)
  }

  /** Starts every pinned profile's server, and from now on follows the pins. */
  serve(): Promise<void> {
    this.serving = true
    return this.sync()
  }

  /** Brings the running set in line with the pins in profiles.json (when serving). */
  sync(): Promise<void> {
    const run = this.queue.then(() => this.syncNow())
    this.queue = run.catch(() => {})
    return run
  }

  /** Stops every pinned server and stops following the pins. */
  stop(): Promise<void> {
    this.serving = false
    return this.sync()
  }

  /** The status of a pinned profile's server, when that profile is pinned and served; null otherwise. */
  status(profileId: string): ServerStatus | null {
    return this.servers.get(profileId)?.supervisor.getStatus() ?? null
  }

  /** The supervisor of a pinned profile, for its launch spec and its request signal; null when not pinned. */
  supervisorOf(profileId: string): ServerSupervisor | null {
    return this.servers.get(profileId)?.supervisor ?? null
  }

  /** The newest lines of a pinned profile's server log, oldest first; [] when that profile is not pinned or not served. */
  logsOf(profileId: string, max?: number): string[] {
    return this.servers.get(profileId)?.supervisor.getLogs(max) ?? []
  }

  /** Why a pinned profile's server was not started (one sentence); null when it was, or when it is not pinned. */
  refusalOf(profileId: string): string | null {
    return this.servers.get(profileId)?.refusal ?? null
  }

  /** Whether any pinned server has a process or is on its way to one (the core's cadence runs while one does). */
  get anyRunning(): boolean {
    for (const p of this.servers.values()) if (p.supervisor.getStatus().state !== 'stopped') return true
    return false
  }

  views(): PinnedServerView[] {
    return [...this.servers.entries()].map(([profileId, p]) => pinnedView(profileId, p))
  }

  private async syncNow(): Promise<void> {
    const store = await ProfileStore.open(this.options.home)
    const wanted = new Map(this.serving ? store.file.profiles.filter((p) => p.pinned).map((p) => [p.id, p.name]) : [])
    for (const [id, pinned] of [...this.servers]) {
      if (wanted.has(id)) continue
      this.servers.delete(id)
      pinned.off()
      await pinned.supervisor.dispose()
      await pinned.telemetry.dispose()
      this.events.emit('state', id, pinned.supervisor.getStatus())
    }
    for (const [id, name] of wanted) {
      const known = this.servers.get(id)
      if (known) known.name = name
      else await this.launch(id, name)
    }
  }

  private async launch(profileId: string, name: string): Promise<void> {
    const supervisor = new ServerSupervisor({
      ...this.options.supervisor,
      home: this.options.home,
      serverName: profileId,
      listen: () => ({ kind: 'private' }),
      watchdog: this.options.watchdog,
    })
    const offs = [
      supervisor.on('state', (status) => this.events.emit('state', profileId, status)),
      supervisor.on('log', (line) => this.events.emit('log', profileId, line)),
    ]
    const pinned: Pinned = {
      supervisor,
      telemetry: new PinnedTelemetry(supervisor, profileId),
      name,
      refusal: null,
      off: () => offs.forEach((off) => off()),
    }
    this.servers.set(profileId, pinned)
    try {
      const resolved = await resolveProfileLaunch(this.options.home, profileId)
      const blocking = blockingProblems(resolved.problems)
      if (blocking.length > 0) {
        const flags = blocking.map((p) => `${p.flag} (${p.message})`).join(', ')
        pinned.refusal = asSentence(`Pinned profile "${profileId}" uses flags that its binary rejects: fix ${flags} in the profile`)
      } else void supervisor.start(resolved.spec)
    } catch (err) {
      if (!(err instanceof ProfileLaunchError)) throw err
      pinned.refusal = asSentence(`Pinned profile "${profileId}" cannot start: ${err.message}`)
    }
    this.events.emit('state', profileId, supervisor.getStatus())
  }
}

/** A pinned server as views see it: the supervisor's record of its state, with why it did not start or last stopped. */
function pinnedView(profileId: string, p: Pinned): PinnedServerView {
  const s = p.supervisor.getStatus()
  const common = { profileId, name: p.name, restarts: s.restarts, generation: p.telemetry.view() }
  const lastExit = p.refusal !== null ? problem('profile', p.refusal) : (s.lastExit?.problem ?? null)
  switch (s.state) {
    case 'backoff':
    case 'crashloop':
    case 'errored':
      // A failed state always has its exit; one the supervisor could not diagnose still says that it stopped.
      return {
        ...common,
        state: s.state,
        pid: null,
        port: null,
        lastExit: lastExit ?? problem('server', s.lastExit.reason ?? 'llama-server stopped'),
      }
    case 'stopped':
      return { ...common, state: s.state, pid: null, port: null, lastExit }
    case 'starting':
      return s.pid === null
        ? { ...common, state: s.state, pid: null, port: null, lastExit }
        : { ...common, state: s.state, pid: s.pid, port: s.port, lastExit }
    default:
      return { ...common, state: s.state, pid: s.pid, port: s.port, lastExit }
  }
}
