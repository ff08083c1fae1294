import { createHash, randomUUID } from 'node:crypto'
import { basename } from 'node:path'
import type { BenchReport } from '../contract/bench'
import type { LaunchSpec } from '../contract/commands'
import type { EndpointRequestFigures } from '../contract/endpoint'
import type { HistorySessionEnd } from '../contract/history'
import { hasProcess, type ServerStatus } from '../contract/server-state'
import type { HistoryStore } from '../history/history-store'

/** What a session's rows say about the server: its profile, engine and model (looked up once per session). */
export interface SessionFacts {
  readonly profileName: string | null
  readonly engine: string | null
  readonly engineVersion: string | null
  readonly driverVersion: string | null
}

export interface HistoryRecorderPorts {
  /** The launch of the running server (its binary and arguments). */
  readonly launch: () => LaunchSpec | null
  /** The profile's name, the engine the binary belongs to, the GPU driver. */
  readonly facts: (profileId: string | null, exe: string | null) => Promise<SessionFacts>
  /** Whether the current start fell back to a safer placement after running out of GPU memory. */
  readonly placementRetry: (profileId: string | null) => boolean
  readonly now?: () => number
  /** Awake ms (AwakeClock.now): a load time leaves out a sleep; the wall clock by default. */
  readonly awake?: () => number
}

interface OpenSession {
  readonly key: string
  readonly pid: number
  readonly profileId: string | null
  readonly startedAt: number
  /** The spawn in awake ms. */
  readonly startedAwake: number
  ready: boolean
  stopping: boolean
}

/** The model file a launch names (`-m`/`--model`), without its folder. */
export function modelOfArgs(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if ((a === '-m' || a === '--model') && args[i + 1] !== undefined) return basename(args[i + 1]!)
    if (a.startsWith('--model=')) return basename(a.slice('--model='.length))
  }
  return null
}

/** A short digest of a launch: the same binary and arguments, the same digest (a change marks a profile edit). */
export function launchDigest(exe: string, args: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([exe, args]))
    .digest('hex')
    .slice(0, 16)
}

/**
 * Turns the core's server states and the endpoint's finished requests into
 * history rows: a session per server process (spawn, ready, exit and how it
 * ended), and a request row per answer with the session's profile and engine.
 * Everything is queued on the store (no I/O on the request path).
 */
export class HistoryRecorder {
  private session: OpenSession | null = null
  /** Each profile's facts from its latest session, for its requests (a pinned profile's too, once it ran here). */
  private readonly facts = new Map<string, SessionFacts & { readonly model: string | null }>()
  private readonly now: () => number
  private readonly awake: () => number

  constructor(
    private readonly store: HistoryStore,
    private readonly ports: HistoryRecorderPorts,
  ) {
    this.now = ports.now ?? Date.now
    this.awake = ports.awake ?? this.now
  }

  /** The server's state changed. */
  onState(status: ServerStatus): void {
    const now = this.now()
    const open = this.session
    if (open && (status.pid !== open.pid || !hasProcess(status.state))) this.end(status, now)
    if (status.pid !== null && this.session === null && hasProcess(status.state)) this.begin(status, now)
    const s = this.session
    if (!s) return
    if (status.state === 'stopping') s.stopping = true
    if ((status.state === 'ready' || status.state === 'sleeping') && !s.ready) {
      s.ready = true
      this.store.recordSession({ key: s.key, readyAt: now, loadMs: this.awake() - s.startedAwake })
    }
  }

  private begin(status: ServerStatus & { pid: number }, now: number): void {
    const spec = this.ports.launch()
    const key = randomUUID()
    const startedAwake = this.awake()
    this.session = { key, pid: status.pid, profileId: status.profileId, startedAt: now, startedAwake, ready: false, stopping: false }
    const model = spec ? modelOfArgs(spec.args) : null
    const digest = spec
      ? createHash('sha256')
          .update(JSON.stringify([spec.exe, spec.args]))
          .digest('hex')
          .slice(0, 16)
      : null
    const placementRetry = this.ports.placementRetry(status.profileId)
    // The start row is written at once; the facts that need a look-up follow (same key, a later flush at the latest).
    this.store.recordSession({
      key,
      kind: 'server',
      profileId: status.profileId,
      profileName: null,
      engine: null,
      engineVersion: null,
      model,
      driverVersion: null,
      launchDigest: digest,
      startedAt: now,
      readyAt: null,
      stoppedAt: null,
      ended: 'running',
      loadMs: null,
      placementRetry,
      generationPerSecond: null,
      promptPerSecond: null,
    })
    void this.ports.facts(status.profileId, status.exe).then(
      (facts) => {
        if (status.profileId !== null) this.facts.set(status.profileId, { ...facts, model })
        this.store.recordSession({ key, ...facts })
      },
      () => {},
    )
  }

  private end(status: ServerStatus, now: number): void {
    const s = this.session!
    this.session = null
    let ended: HistorySessionEnd
    if (hasProcess(status.state)) ended = 'replaced'
    else if (s.stopping && status.state === 'stopped') ended = 'stopped'
    else ended = s.ready ? 'crashed' : 'failed'
    this.store.recordSession({ key: s.key, stoppedAt: now, ended })
  }

  /** A request finished at the endpoint. */
  onRequest(f: EndpointRequestFigures): void {
    const facts = f.profileId === null ? undefined : this.facts.get(f.profileId)
    const prompt = f.promptTokens === null && f.cachedTokens === null ? null : (f.promptTokens ?? 0) + (f.cachedTokens ?? 0)
    this.store.recordRequest({
      time: f.time,
      profileId: f.profileId,
      profileName: facts?.profileName ?? null,
      engine: facts?.engine ?? null,
      engineVersion: facts?.engineVersion ?? null,
      model: facts?.model ?? null,
      path: f.path,
      status: f.status,
      // The prompt as the client's `usage` counts it: the processed tokens and the cached ones.
      promptTokens: prompt,
      cachedTokens: f.cachedTokens,
      generatedTokens: f.predictedTokens,
      draftTokens: f.draftTokens,
      draftAccepted: f.draftAccepted,
      promptPerSecond: f.promptTokensPerSecond,
      generationPerSecond: f.predictedTokensPerSecond,
      ttftMs: f.timeToFirstTokenMs ?? f.timeToFirstByteMs,
      durationMs: f.durationMs,
      energyJ: f.energyJ,
      error: f.error,
    })
  }

  /** A finished bench run: one bench session per profile benched, with its median speeds (shown on the History charts). */
  onBench(report: BenchReport): void {
    const at = Date.parse(report.createdAt)
    for (const r of report.results)
      this.store.recordSession({
        key: randomUUID(),
        kind: 'bench',
        profileId: r.profileId,
        profileName: r.profileName,
        engine: r.fork,
        engineVersion: null,
        model: modelOfArgs(r.args),
        driverVersion: null,
        launchDigest: launchDigest(r.exe, r.args),
        startedAt: Number.isFinite(at) ? at : this.now(),
        readyAt: null,
        stoppedAt: this.now(),
        ended: 'stopped',
        loadMs: r.loadMs,
        placementRetry: false,
        generationPerSecond: r.median.tokensPerSecond,
        promptPerSecond: r.median.promptTokensPerSecond,
      })
  }

  /** Ends an open session as stopped (the core is going away) and writes everything queued. */
  async dispose(): Promise<void> {
    if (this.session) this.store.recordSession({ key: this.session.key, stoppedAt: this.now(), ended: 'stopped' })
    this.session = null
    await this.store.close()
  }
}
