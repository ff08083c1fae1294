import { performance } from 'node:perf_hooks'
import { Listeners } from '../lib/listeners'
import { fetchSlots, type SlotsFetchResult } from './fetch-slots'
import { SlotRates, type RatedSlot } from './slot-rates'
import { SYSTEM_IDLE_BEAT, type IdleBeat } from '../lib/idle-beat'

export interface SlotsPollerOptions {
  /** The server's base URL, e.g. http://127.0.0.1:8080 (see serverOrigin() in contract/client-url.ts). */
  readonly baseUrl: string
  readonly apiKey?: string | null
  /** Poll period while a slot is processing. */
  readonly busyIntervalMs?: number
  /** Poll period while every slot is idle… */
  readonly idleIntervalMs?: number
  /**
   * …doubling with each further idle answer up to this: an idle server costs
   * almost nothing, and the log's "task started" line wakes the poller at once
   * (the idle polls only back that up). Each idle poll costs the app 3–4 ms of
   * CPU on 2 cores (a fresh connection, the JSON, the wake of its timeout):
   * 0.06 ms/s at 60 s (npm run bench idle).
   */
  readonly idleMaxIntervalMs?: number
  /** After a slot's first token is seen, poll again this soon so its first rate shows quickly. */
  readonly firstRateDelayMs?: number
  /** While busy slots are all still reading their prompts, poll this often to catch the first token… */
  readonly promptIntervalMs?: number
  /** …for this long; a longer prompt is polled at the first-rate delay (its first token can wait that much). */
  readonly fastPromptMs?: number
  /** A poll without an answer after this long is reported as `slow` (busy), then retried. */
  readonly timeoutMs?: number
  /**
   * False for a server that sleeps when idle (--sleep-idle-seconds): a /slots
   * request is a task that resets its idle clock, and wakes it once asleep. After
   * an idle answer the poller then waits for the log's news (pokeSoon) instead.
   */
  readonly pollWhenIdle?: boolean
  /** A monotonic stamp in awake ms (AwakeClock.ofMono): a rate over a lid close leaves the sleep out. As is by default. */
  readonly awakeOf?: (monoMs: number) => number
  /** The idle beat an idle poll's pause keeps to (one wake with the core's tick); default: the process's. */
  readonly beat?: IdleBeat
}

export type PollOutcome =
  | { readonly kind: 'ok'; readonly slots: readonly RatedSlot[]; readonly time: number }
  | Exclude<SlotsFetchResult, { kind: 'ok' } | { kind: 'aborted' }>

export interface SlotsPollerEvents {
  poll: (outcome: PollOutcome) => void
}

/**
 * Polls GET /slots: every busyIntervalMs while a slot is processing, every
 * idleIntervalMs otherwise, one request at a time, and turns successive
 * answers into live per-slot rates. Stops on stop() or when the signal given
 * to start() aborts; after stop() resolves no timer or socket is left.
 */
export class SlotsPoller {
  private readonly url: string
  private readonly opts: Required<Omit<SlotsPollerOptions, 'baseUrl' | 'apiKey'>> & { apiKey: string | null }
  private readonly rates = new SlotRates()
  private readonly listeners = new Listeners<SlotsPollerEvents>()
  /** The pending poll's cancel. */
  private timer: (() => void) | null = null
  private controller: AbortController | null = null
  private inFlight: Promise<void> | null = null
  private inFlightSince: number | null = null
  private running = false
  /** Running, but not asking: the server sleeps (suspend/resume). */
  private suspended = false
  private busy = false
  private pokedDuringPoll = false
  /** Idle answers in a row (the idle pace backs off with them). */
  private idleStreak = 0
  /** When the busy slots were first seen all reading prompts (monotonic ms); null otherwise. */
  private promptSince: number | null = null
  private detachSignal: (() => void) | null = null

  constructor(options: SlotsPollerOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/slots`
    this.opts = {
      apiKey: options.apiKey ?? null,
      busyIntervalMs: options.busyIntervalMs ?? 500,
      idleIntervalMs: options.idleIntervalMs ?? 1000,
      idleMaxIntervalMs: options.idleMaxIntervalMs ?? 60_000,
      firstRateDelayMs: options.firstRateDelayMs ?? 250,
      promptIntervalMs: options.promptIntervalMs ?? 100,
      fastPromptMs: options.fastPromptMs ?? 1000,
      timeoutMs: options.timeoutMs ?? 5000,
      pollWhenIdle: options.pollWhenIdle ?? true,
      awakeOf: options.awakeOf ?? ((monoMs) => monoMs),
      beat: options.beat ?? SYSTEM_IDLE_BEAT,
    }
  }

  on<K extends keyof SlotsPollerEvents>(event: K, listener: SlotsPollerEvents[K]): () => void {
    return this.listeners.on(event, listener)
  }

  get isRunning(): boolean {
    return this.running
  }

  /** How long the current request has waited for its answer (ms), or null when none is in flight. */
  inFlightForMs(now = performance.now()): number | null {
    return this.inFlightSince === null ? null : now - this.inFlightSince
  }

  /** Starts polling now. `signal` (e.g. the supervisor's getRequestSignal()) stops it when aborted. */
  start(signal?: AbortSignal | null): void {
    if (this.running) return
    if (signal?.aborted) return
    this.running = true
    this.controller = new AbortController()
    if (signal) {
      const onAbort = (): void => void this.stop()
      signal.addEventListener('abort', onAbort, { once: true })
      this.detachSignal = () => signal.removeEventListener('abort', onAbort)
    }
    this.schedule(0)
  }

  /** Polls as soon as possible (e.g. the log said a task started). */
  pokeSoon(delayMs = 0): void {
    if (!this.running || this.suspended) return
    // A poll in flight may have been answered before the news: poll again right after it,
    // or it would schedule the idle pace and the new task would wait up to a second.
    this.idleStreak = 0
    if (this.inFlight) this.pokedDuringPoll = true
    else this.schedule(delayMs)
  }

  /**
   * Asks nothing until resume(): the server sleeps and a /slots request would
   * wake it. The timer is cleared and a request in flight is abandoned.
   */
  suspend(): void {
    if (!this.running || this.suspended) return
    this.suspended = true
    this.timer?.()
    this.timer = null
    this.controller?.abort()
    this.controller = new AbortController()
    this.busy = false
    this.rates.reset()
  }

  /** Polls again from now (the server woke up). */
  resume(): void {
    if (!this.running || !this.suspended) return
    this.suspended = false
    this.idleStreak = 0
    this.schedule(0)
  }

  /** Stops polling; resolves once no timer and no request is left. */
  async stop(): Promise<void> {
    this.running = false
    this.timer?.()
    this.timer = null
    this.detachSignal?.()
    this.detachSignal = null
    this.controller?.abort()
    this.controller = null
    await this.inFlight
    this.rates.reset()
  }

  private schedule(delayMs: number): void {
    if (!this.running || this.suspended) return
    this.timer?.()
    // A forgotten poller must not keep the process alive: the beat's timers are unref'd.
    this.timer = this.opts.beat.after(delayMs, () => {
      this.timer = null
      const poll: Promise<void> = this.pollOnce().finally(() => {
        // An abandoned poll (suspend) may end after the next one began.
        if (this.inFlight !== poll) return
        this.inFlight = null
        this.inFlightSince = null
      })
      this.inFlight = poll
    })
  }

  private async pollOnce(): Promise<void> {
    const signal = this.controller?.signal
    if (!signal || signal.aborted) return
    this.inFlightSince = performance.now()
    this.pokedDuringPoll = false
    const result = await fetchSlots(this.url, { apiKey: this.opts.apiKey, timeoutMs: this.opts.timeoutMs, signal })
    if (result.kind === 'aborted' || !this.running || signal.aborted) return
    let next: number
    if (result.kind === 'ok') {
      const slots = this.rates.update(result.slots, this.opts.awakeOf(result.time))
      this.busy = slots.some((s) => s.reading.processing)
      const prompting = this.busy && slots.every((s) => !s.reading.processing || (s.reading.nDecoded ?? 0) === 0)
      this.promptSince = prompting ? (this.promptSince ?? result.time) : null
      next = nextPollDelay(slots, this.opts, this.promptSince === null ? 0 : result.time - this.promptSince)
      this.idleStreak = this.busy ? 0 : this.idleStreak + 1
      if (!this.busy) next = idlePollDelay(this.idleStreak, this.opts)
      this.listeners.emit('poll', { kind: 'ok', slots, time: result.time })
      if (!this.busy && !this.opts.pollWhenIdle && !this.pokedDuringPoll) return // the log's next task pokes it
    } else {
      // Slow: ask again at once (the previous request is gone). Otherwise keep the idle pace.
      if (result.kind !== 'slow') {
        this.busy = false
        this.rates.reset()
      }
      this.idleStreak = 0
      next = result.kind === 'slow' ? 0 : this.opts.idleIntervalMs
      this.listeners.emit('poll', result)
    }
    this.schedule(this.pokedDuringPoll ? 0 : next)
  }
}

/** The wait after the `streak`-th idle answer in a row: the idle interval, doubled each time up to the maximum. */
export function idlePollDelay(streak: number, pacing: Pick<Required<SlotsPollerOptions>, 'idleIntervalMs' | 'idleMaxIntervalMs'>): number {
  const doublings = Math.min(Math.max(0, streak - 1), 20)
  return Math.min(pacing.idleMaxIntervalMs, pacing.idleIntervalMs * 2 ** doublings)
}

type Pacing = Pick<Required<SlotsPollerOptions>, 'busyIntervalMs' | 'idleIntervalMs' | 'firstRateDelayMs' | 'promptIntervalMs'> &
  Partial<Pick<SlotsPollerOptions, 'fastPromptMs'>>

/**
 * When to poll next, from what the last poll saw. A rate needs two readings after
 * the first token, so the first figure comes at (first token caught) + (first-rate
 * delay): prompts are polled quickly to catch that token, but only for their
 * first second (most chat turns; a long prompt's first token can wait the
 * first-rate delay, and each poll takes a little from prompt processing:
 * ~1–2% at 100 ms on 2 cores, npm run bench metrics) and only while no slot
 * is generating, whose per-interval rate would turn to quantisation noise.
 */
export function nextPollDelay(slots: readonly RatedSlot[], pacing: Pacing, promptAgeMs = 0): number {
  const busy = slots.filter((s) => s.reading.processing)
  if (busy.length === 0) return pacing.idleIntervalMs
  const generating = busy.filter((s) => (s.reading.nDecoded ?? 0) > 0)
  if (generating.length === 0)
    return Math.min(promptAgeMs < (pacing.fastPromptMs ?? 1000) ? pacing.promptIntervalMs : pacing.firstRateDelayMs, pacing.busyIntervalMs)
  const waitingForRate = generating.some((s) => s.tokensPerSecond === null) || generating.length < busy.length
  return waitingForRate ? Math.min(pacing.firstRateDelayMs, pacing.busyIntervalMs) : pacing.busyIntervalMs
}
