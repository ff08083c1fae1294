import { Agent, type IncomingMessage, type ServerResponse } from 'node:http'
import type { EndpointRequestFigures } from '../contract/endpoint'
import { connectHost } from '../contract/client-url'
import { hasProcess, isServing, type ServerStatus } from '../contract/server-state'
import { checkAccess } from './access'
import { answerPreflight, checkBrowserAccess, grantOrigin } from './browser-guard'
import { AdmissionError, type EndpointBackend, type Lease, type PinnedBackend } from './backend'
import { forward, type ForwardResult, type Upstream } from './forward'
import { answerSwitchControl, SWITCH_CONTROL_PATH } from './control-route'
import { modelList, profileForModel } from './model-routing'
import { EndpointError, sendError, sendJson } from './openai-error'
import { checkJsonBody } from './body-check'
import { discardRest, modelOf, readBody } from './read-body'
import type { FiguresTap } from './request-figures'
import { POISON_REFUSAL_MS, PoisonRequests } from './poison-requests'

const MODEL_LISTS = new Set(['/v1/models', '/models'])
const HEALTH = new Set(['/health', '/v1/health'])
/** Attempts at a server that did not answer (a crash or a switch may be under way): each waits for it again. */
const ATTEMPTS = 5

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Ready, or sleeping: the request is forwarded and wakes it (it answers once its model is back). */
const isReady = isServing

/**
 * Handles the endpoint's requests: the model list, then for everything else
 * the profile it is for (its `model`), a switch when that is another profile,
 * holding while the server is not ready, and the pass-through.
 */
export class EndpointRouter {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 })
  /** Requests waiting for their turn (bounded by the setting "held requests"). */
  private waiting = 0
  private readonly closing = new AbortController()
  private readonly poison = new PoisonRequests()
  /** The server (pid@host:port) a request was last lost on: its crash. */
  private lostOn: string | null = null

  constructor(
    private readonly backend: EndpointBackend,
    /** The address the endpoint is bound to: the names a request's Host may use follow from it. */
    private readonly listenerHost: string,
    private readonly apiKey: string | null,
    private readonly onFigures: (figures: EndpointRequestFigures) => void,
  ) {}

  get held(): number {
    return this.waiting
  }

  /** The requests being handled: a shutdown lets each end its answer (a stream with an error event) before connections drop. */
  private readonly inFlight = new Set<Promise<void>>()

  /**
   * Answers every held request with an error, ends every answer in flight (a stream with an SSE error event naming the
   * shutdown, never a silent cut), then drops the server connections. Waits at most `graceMs` for the answers to end.
   */
  async close(graceMs = 2000): Promise<void> {
    this.closing.abort(new AdmissionError('Llama Tray is stopping the endpoint; send the request again once it runs', 'shutting_down'))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => (timer = setTimeout(r, graceMs)))])
    clearTimeout(timer)
    this.agent.destroy()
  }

  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const handled = this.answer(req, res)
    this.inFlight.add(handled)
    void handled.finally(() => this.inFlight.delete(handled))
    return handled
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now()
    const abort = new AbortController()
    res.once('close', () => abort.abort())
    const path = (req.url ?? '/').split('?')[0] as string
    try {
      const settings = this.backend.settings()
      checkBrowserAccess(req, this.listenerHost, settings.endpointAllowedHosts, settings.endpointAllowedOrigins)
      grantOrigin(req, res, settings.endpointAllowedOrigins)
      checkAccess(req, path, this.apiKey)
      if (req.method === 'OPTIONS') return answerPreflight(req, res, settings.endpointAllowedOrigins)
      if (req.method === 'GET' && MODEL_LISTS.has(path))
        return sendJson(res, 200, modelList(await this.backend.profiles(), this.runningProfile()))
      const body = await readBody(req, settings.endpointMaxBodyMiB)
      if (path === SWITCH_CONTROL_PATH) return await this.switchControl(req, res, body)
      checkJsonBody(req, body, path)
      if (body.length > 0 && this.poison.refuses(body)) throw poisonRefused()
      const target = await this.targetOf(req, path, body)
      let heldMs = 0
      for (let attempt = 1; ; attempt++) {
        const heldFrom = performance.now()
        const { upstream, lease } = await this.serverFor(target, path, abort.signal)
        heldMs += performance.now() - heldFrom
        let result: ForwardResult
        try {
          // A switch's cut (the lease's) or the endpoint's shutdown: either ends a stream with an error event.
          const cut = lease ? AbortSignal.any([lease.signal, this.closing.signal]) : this.closing.signal
          result = await forward(req, body, res, upstream, this.agent, cut)
        } finally {
          lease?.release()
        }
        if (result.kind === 'cut') throw admissionError(result.reason)
        const where = `${upstream.pid ?? '?'}@${upstream.host}:${upstream.port}`
        if (result.kind === 'answered') {
          // The server went away in the middle of this answer (its stream ended with our error event: the client
          // stayed): a request reset on it from now on (sent before its exit is seen, more likely on a loaded
          // machine) is not the one it was lost on, and waits for the restart.
          if (result.broke && res.writableFinished) this.lostOn = where
          this.onFigures(this.figures(req, path, target, result.status, result.stream, result.tap, arrived, heldMs))
          return
        }
        if (abort.signal.aborted) return
        // A request sent to a server that a request was already lost on (it crashed, and its exit is not seen yet) is
        // reset unread, on a kept-alive socket or a new one: not a crash of its own, so it waits for the restart.
        if (result.kind === 'lost' && this.lostOn !== where) {
          this.lostOn = where
          if (body.length > 0) this.poison.crashedOn(body)
          throw new EndpointError(
            502,
            'server_error',
            'The model crashed on this request, so it is not sent again; change the request, or see the server log in Llama Tray.',
            'model_crashed',
          )
        }
        if (attempt >= ATTEMPTS)
          throw new EndpointError(
            502,
            'server_error',
            `llama-server did not answer (${result.error.message}); see Llama Tray's log`,
            'upstream_unreachable',
          )
        await sleep(100 * attempt) // a crash is noticed within a few hundred ms: then the next attempt is held
      }
    } catch (err) {
      if (abort.signal.aborted) return
      if (err instanceof EndpointError && err.status === 413) discardRest(req)
      if (err instanceof EndpointError) return sendError(res, err)
      sendError(res, new EndpointError(500, 'server_error', `the endpoint failed: ${(err as Error).message}`))
    }
  }

  /** `llama-tray profiles use`: a switch through the core's scheduler, past the same access check as every request. */
  private async switchControl(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const control = this.backend.control
    if (req.method !== 'POST' || !control)
      throw new EndpointError(404, 'not_found_error', 'This endpoint takes no switch requests; send POST with {"profile": "<id>"}.')
    const { profiles } = await this.backend.profiles()
    await answerSwitchControl(
      res,
      body,
      control,
      profiles.map((p) => p.id),
    )
  }

  private runningProfile(): string | null {
    const s = this.backend.status()
    return s.state === 'stopped' || s.state === 'errored' || s.state === 'crashloop' ? null : s.profileId
  }

  /** The profile a request is for: the one its `model` names, else the running one. */
  private async targetOf(req: IncomingMessage, path: string, body: Buffer): Promise<string | null> {
    const model = req.method === 'POST' ? modelOf(req, body) : undefined
    if (model === undefined && (req.method !== 'POST' || HEALTH.has(path))) return this.backend.switchingTo() ?? this.runningProfile()
    return profileForModel(model, await this.backend.profiles(), this.backend.switchingTo() ?? this.runningProfile())
  }

  /** Where to send a request for `target`: once the core's scheduler gives it its turn on a ready server (held meanwhile). */
  private async serverFor(target: string | null, path: string, signal: AbortSignal): Promise<{ upstream: Upstream; lease: Lease | null }> {
    // A pinned profile has its own server beside the active one: no switch, no turn to wait for.
    const pinned = target === null ? null : this.backend.pinned(target)
    if (pinned && target !== null) return { upstream: await this.pinnedUpstream(target, pinned, signal), lease: null }
    if (target === null || HEALTH.has(path)) {
      // A health check answers now; other requests that name no profile go to whatever is on its way.
      const s = this.backend.status()
      if (isReady(s) && this.backend.switchingTo() === null) return { upstream: await this.upstream(s), lease: null }
      throw new EndpointError(
        503,
        'unavailable_error',
        target === null ? 'no server is running: start a profile in Llama Tray or send a request whose "model" names one' : 'Loading model',
        'unavailable',
      )
    }
    const s = this.backend.status()
    const switches = s.profileId !== target || s.state === 'stopped' || s.state === 'errored' || s.state === 'crashloop'
    if (switches && !this.backend.settings().switchOnRequest) throw this.switchRefused(s, target)
    const { max, waitMs } = this.holdLimits()
    if (this.waiting >= max) {
      throw new EndpointError(
        503,
        'unavailable_error',
        `${max} requests are already waiting for the server to be ready; try again shortly (the limit is the setting "held requests")`,
        'queue_full',
      )
    }
    const timeout = AbortSignal.timeout(waitMs)
    this.waiting++
    try {
      const lease = await this.backend.acquire(target, AbortSignal.any([signal, timeout, this.closing.signal]))
      try {
        return { upstream: await this.upstream(this.backend.status()), lease }
      } catch (err) {
        lease.release()
        throw err
      }
    } catch (err) {
      if (signal.aborted) throw new EndpointError(499, 'invalid_request_error', 'the client went away', 'client_closed')
      if (this.closing.signal.aborted)
        throw new EndpointError(503, 'unavailable_error', 'Llama Tray is stopping the endpoint', 'shutting_down')
      if (timeout.aborted) {
        throw new EndpointError(
          503,
          'unavailable_error',
          `profile "${target}" was not ready within ${Math.round(waitMs / 1000)} s; try again, or see Llama Tray's log (the wait is ` +
            `the setting "held request wait")`,
          'wait_timeout',
        )
      }
      if (err instanceof AdmissionError) throw admissionError(err)
      throw err
    } finally {
      this.waiting--
    }
  }

  /** A pinned server's address once it is ready (held meanwhile, as long as the setting "held request wait"). */
  private async pinnedUpstream(target: string, pinned: PinnedBackend, signal: AbortSignal): Promise<Upstream> {
    const { waitMs } = this.holdLimits()
    const timeout = AbortSignal.timeout(waitMs)
    const stop = AbortSignal.any([signal, timeout, this.closing.signal])
    await new Promise<void>((resolve, reject) => {
      let off = (): void => {}
      const settle = (error: EndpointError | null): void => {
        off()
        stop.removeEventListener('abort', onAbort)
        if (error) reject(error)
        else resolve()
      }
      const check = (s: ServerStatus): void => {
        if (isReady(s)) return settle(null)
        // Stopped is also the moment before its first start: only a refusal or a failure ends the wait early.
        const refusal = pinned.refusal()
        if (refusal === null && s.state !== 'errored' && s.state !== 'crashloop') return
        const reason = refusal ?? s.lastExit?.reason ?? null
        const why = reason ? ` (${reason.replace(/\.$/, '')})` : ''
        settle(
          new EndpointError(
            503,
            'unavailable_error',
            `The server of pinned profile "${target}" is not running${why}; see its log in Llama Tray, fix the profile, or unpin it.`,
            'pinned_down',
          ),
        )
      }
      const onAbort = (): void => {
        if (signal.aborted) settle(new EndpointError(499, 'invalid_request_error', 'the client went away', 'client_closed'))
        else if (this.closing.signal.aborted)
          settle(new EndpointError(503, 'unavailable_error', 'Llama Tray is stopping the endpoint', 'shutting_down'))
        else
          settle(
            new EndpointError(
              503,
              'unavailable_error',
              `The server of pinned profile "${target}" was not ready within ${Math.round(waitMs / 1000)} s; try again, or see its ` +
                `log in Llama Tray (the wait is the setting "held request wait").`,
              'wait_timeout',
            ),
          )
      }
      off = pinned.onState(check)
      stop.addEventListener('abort', onAbort, { once: true })
      if (stop.aborted) onAbort()
      else check(pinned.status())
    })
    return this.upstream(pinned.status(), () => pinned.upstreamApiKey())
  }

  private holdLimits(): { max: number; waitMs: number } {
    const s = this.backend.settings()
    return { max: s.heldRequestsMax, waitMs: s.heldRequestWaitS * 1000 }
  }

  private switchRefused(s: ServerStatus, target: string): EndpointError {
    if (hasProcess(s.state) && s.profileId !== null && s.profileId !== target) {
      return new EndpointError(
        409,
        'conflict_error',
        `the server runs profile "${s.profileId}" and switching on request is off: send "model": "${s.profileId}", or switch to "` +
          `${target}" ` +
          `in Llama Tray (or turn on the setting "switch on request")`,
        'switch_off',
      )
    }
    return new EndpointError(
      503,
      'unavailable_error',
      `profile "${target}" is not running and switching on request is off: start it in Llama Tray (or turn on the setting "switch on ` +
        `request")`,
      'switch_off',
    )
  }

  /** The address of a serving server; one that stopped since it was found ready refuses the request (the client may retry). */
  private async upstream(s: ServerStatus, apiKey = (): Promise<string | null> => this.backend.upstreamApiKey()): Promise<Upstream> {
    if (!isServing(s)) throw new EndpointError(503, 'unavailable_error', `the server is ${s.state}: try again shortly`, 'unavailable')
    return { host: connectHost(s.host), port: s.port, apiKey: await apiKey(), pid: s.pid }
  }

  private figures(
    req: IncomingMessage,
    path: string,
    profileId: string | null,
    status: number,
    stream: boolean,
    tap: FiguresTap,
    arrived: number,
    heldMs: number,
  ): EndpointRequestFigures {
    const t = tap.timings()
    const end = performance.now()
    const time = Date.now()
    // The server's part of it: from when the request was let through (after any hold) to the answer's end.
    const worked = Math.max(0, end - arrived - heldMs)
    return {
      time,
      profileId,
      method: req.method ?? 'GET',
      path,
      status,
      stream,
      timeToFirstByteMs: tap.firstByteAt === null ? null : tap.firstByteAt - arrived,
      timeToFirstTokenMs: stream && tap.firstEventAt !== null ? tap.firstEventAt - arrived : null,
      durationMs: end - arrived,
      heldMs,
      promptTokens: t?.promptTokens ?? null,
      predictedTokens: t?.predictedTokens ?? null,
      predictedTokensPerSecond: t?.predictedTokensPerSecond ?? null,
      cachedTokens: t?.cachedTokens ?? null,
      promptTokensPerSecond: t?.promptTokensPerSecond ?? null,
      draftTokens: t?.draftTokens ?? null,
      draftAccepted: t?.draftAccepted ?? null,
      error: status >= 400 ? (tap.errorMessage() ?? `HTTP ${status}`) : null,
      energyJ: this.backend.energyJ?.(time - worked, time) ?? null,
    }
  }
}

const ADMISSION_STATUS = {
  profile_refused: 409,
  profile_failed: 503,
  switch_cut: 503,
  switch_replaced: 409,
  switch_withdrawn: 409,
  shutting_down: 503,
} as const

/** A body that crashed the server a moment ago: refused before it can crash it again. */
function poisonRefused(): EndpointError {
  return new EndpointError(
    422,
    'invalid_request_error',
    `This request crashed the model less than ${POISON_REFUSAL_MS / 60_000} minutes ago, so it is refused; change the request, or ` +
      'see the server log in Llama Tray.',
    'request_crashed_model',
  )
}

/** The scheduler's refusal as an OpenAI-style error: its one sentence and its code. */
function admissionError(err: AdmissionError): EndpointError {
  const status = ADMISSION_STATUS[err.code]
  return new EndpointError(status, status === 409 ? 'conflict_error' : 'unavailable_error', err.message, err.code)
}
