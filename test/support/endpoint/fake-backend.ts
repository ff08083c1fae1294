import { problem, type Problem } from '../../../app/contract/problem'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ServerStatus } from '../../../app/contract/server-state'
import { Listeners } from '../../../app/lib/listeners'
import { NEVER_STARTED, serverStatus } from '../../helpers/server-status'
import type { EndpointBackend, EndpointSettings, Lease } from '../../../app/endpoint/backend'

/** What a switch ended with. */
export type SwitchOutcome = { readonly ok: true; readonly value: ServerStatus } | { readonly ok: false; readonly error: Problem }

/** Who decides when to switch: the core's scheduler in the tests (test/helpers/scheduled-backend.ts). */
export interface FakeScheduler {
  acquire(profileId: string, signal: AbortSignal): Promise<Lease>
  switchingTo(): string | null
}

/**
 * What an in-process upstream does with a chat request; 'reset-once' takes the whole request and resets the socket
 * unanswered, once (a server that died before answering, its exit not seen yet), then answers again.
 */
export type UpstreamBehaviour = 'answer' | 'break-mid-stream' | 'wait-for-release' | 'reset-once'

/** An in-process stand-in for llama-server that answers with its profile's id (SSE or JSON, with timings). */
export class FakeUpstream {
  readonly server: Server
  /** Requests whose client went away before the answer ended. */
  aborted = 0
  behaviour: UpstreamBehaviour = 'answer'
  private releases: (() => void)[] = []

  constructor(readonly profileId: string) {
    this.server = createServer((req, res) => void this.handle(req, res))
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()))
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  /** Lets the streams held by 'wait-for-release' send the rest. */
  release(): void {
    for (const r of this.releases.splice(0)) r()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = ''
    for await (const c of req) text += String(c)
    res.on('close', () => {
      if (!res.writableFinished) this.aborted++
    })
    // As llama-server does: any Origin is echoed back with credentials allowed, and a preflight is granted.
    if (req.headers.origin) {
      res.setHeader('access-control-allow-origin', req.headers.origin)
      res.setHeader('access-control-allow-credentials', 'true')
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': '*' })
      return void res.end()
    }
    if (req.url === '/health') return void res.end('{"status":"ok"}')
    if (this.behaviour === 'reset-once') {
      this.behaviour = 'answer'
      return void req.socket.resetAndDestroy()
    }
    const body = (text ? JSON.parse(text) : {}) as { stream?: boolean }
    const timings = { prompt_n: 3, predicted_n: 4, predicted_per_second: 40 }
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ profile: this.profileId, auth: req.headers.authorization ?? null, timings }))
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    await new Promise<void>((r) => res.write(`data: ${JSON.stringify({ profile: this.profileId, n: 1 })}\n\n`, () => r()))
    // A crash after the first event reached the endpoint.
    if (this.behaviour === 'break-mid-stream') return void setTimeout(() => res.socket?.destroy(), 50)
    if (this.behaviour === 'wait-for-release') await new Promise<void>((r) => this.releases.push(r))
    if (res.destroyed) return
    res.write(`data: ${JSON.stringify({ profile: this.profileId, n: 2, timings })}\n\n`)
    res.end('data: [DONE]\n\n')
  }
}

/**
 * The core as the endpoint sees it, in process: each profile has its own fake
 * upstream; a switch goes stopping → starting → ready (or errored for a
 * profile in `broken`), each step when the test lets it (`gate`) or at once.
 * When to switch is the `scheduler`'s (the core's own, in the tests).
 */
export class FakeBackend implements EndpointBackend {
  /** The GPU's energy between two epoch ms, as the core's meter would give it; none by default. */
  energyJ?: (fromMs: number, toMs: number) => number | null
  current: ServerStatus = NEVER_STARTED
  readonly upstreams = new Map<string, FakeUpstream>()
  readonly switches: string[] = []
  readonly broken = new Set<string>()
  settingsValue: EndpointSettings = {
    switchOnRequest: true,
    heldRequestsMax: 64,
    heldRequestWaitS: 60,
    endpointAllowedOrigins: [],
    endpointAllowedHosts: [],
    endpointMaxBodyMiB: 32,
  }
  /** When set, each switch waits for this before its server is ready. */
  gate: Promise<void> | null = null
  private readonly listeners = new Listeners<{ state: (s: ServerStatus) => void }>()

  constructor(readonly profileIds: readonly string[]) {}

  async start(): Promise<void> {
    for (const id of this.profileIds) {
      const u = new FakeUpstream(id)
      await u.listen()
      this.upstreams.set(id, u)
    }
  }

  async close(): Promise<void> {
    for (const u of this.upstreams.values()) await u.close()
  }

  setState(next: ServerStatus): void {
    this.current = next
    this.listeners.emit('state', this.current)
  }

  /** As if the profile had been started (and is ready) before the test. */
  ready(id: string): void {
    const upstream = this.upstreams.get(id)
    if (!upstream) throw new Error(`FakeBackend: no upstream for profile ${id}`)
    this.setState(serverStatus('ready', { profileId: id, pid: process.pid, port: upstream.port, readySince: Date.now() }))
  }

  status(): ServerStatus {
    return this.current
  }

  onState(listener: (s: ServerStatus) => void): () => void {
    return this.listeners.on('state', listener)
  }

  async profiles() {
    return { profiles: this.profileIds.map((id) => ({ id, name: `Profile ${id}` })), activeProfileId: this.current.profileId }
  }

  scheduler: FakeScheduler | null = null

  acquire(id: string, signal: AbortSignal): Promise<Lease> {
    if (!this.scheduler) throw new Error('FakeBackend needs a scheduler: see test/helpers/scheduled-backend.ts')
    return this.scheduler.acquire(id, signal)
  }

  switchingTo(): string | null {
    return this.scheduler?.switchingTo() ?? null
  }

  async switchTo(id: string): Promise<SwitchOutcome> {
    this.switches.push(id)
    const was = this.current
    if (was.state === 'ready') this.setState(serverStatus('stopping', { profileId: was.profileId, pid: was.pid, port: was.port }))
    this.setState(serverStatus('starting', { profileId: id, pid: null, host: null, port: null }))
    await (this.gate ?? Promise.resolve())
    if (this.broken.has(id)) {
      const reason = `model file missing for ${id}`
      const lastExit = { code: 1, signal: null, reason, hint: null, kind: 'model-missing' as const, problem: null }
      this.setState(serverStatus('errored', { profileId: id, lastExit }))
      return { ok: false, error: problem('server', reason) }
    }
    this.ready(id)
    return { ok: true, value: this.current }
  }

  /** No pinned profiles behind the fake: requests all go through the scheduler. */
  pinned(): null {
    return null
  }

  async upstreamApiKey(): Promise<string | null> {
    return 'upstream-key'
  }

  readonly settings = (): EndpointSettings => this.settingsValue
}
