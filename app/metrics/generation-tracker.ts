import { performance } from 'node:perf_hooks'
import type { GenerationHistory, GenerationSnapshot, RequestTimings, SlotGeneration, SlotsPollState } from '../contract/generation'
import { Listeners } from '../lib/listeners'
import { RingBuffer } from '../lib/ring-buffer'
import { PerSecondHistory } from './per-second-history'
import { ProfileRollingStore } from './rolling-figures'
import type { RatedSlot } from './slot-rates'
import { SlotsPoller, type PollOutcome, type SlotsPollerOptions } from './slots-poller'
import { TimingLogParser, type TimingEvent } from './timing-log-parser'

export interface GenerationTrackerOptions extends SlotsPollerOptions {
  readonly profileId: string
  /** Shared across runs so a profile's rolling figures survive restarts; a private one by default. */
  readonly rolling?: ProfileRollingStore
  /** A poll unanswered for this long marks the server busy (`poll.state` = slow). */
  readonly slowAfterMs?: number
  readonly historySeconds?: number
  readonly historyRequests?: number
  /** The threads the server logged before the tracker started (threadsFromLog of its log so far). */
  readonly threads?: number | null
  /** The GPU energy between two epoch ms (the telemetry's energy meter); each finished request gets its energyJ from it. */
  readonly energyJ?: (fromMs: number, toMs: number) => number | null
}

/** One live figure per answered poll. */
export interface RateSample {
  /** Epoch ms. */
  readonly time: number
  /** Sum over busy slots that have a rate; null when busy slots have none yet. */
  readonly tokensPerSecond: number | null
  readonly perSlot: ReadonlyMap<number, number>
}

export interface GenerationTrackerEvents {
  /** A finished request's timings, from the log. */
  request: (timings: RequestTimings) => void
  /** Every answered poll. */
  rate: (sample: RateSample) => void
}

interface SlotLogInfo {
  taskId: number
  promptProgress: number | null
  liveTokensPerSecond: number | null
  /** Monotonic ms of the last live line. */
  liveAt: number
}

/** A v0.5.0 live log line (every ≥3 s) is a usable fallback for this long. */
const LOG_RATE_FRESH_MS = 4000
/** A record waiting for a trailing draft line is completed after this long. */
const PENDING_RECORD_MS = 500
/**
 * `system_info: n_threads = 8 (n_threads_batch = 8) / 16 | …` (verbose logs) or `llama threadpool init, n_threads = 8` (every start,
 * mainline).
 */
const SYSTEM_INFO_THREADS = /(?:system_info:|threadpool init,) n_threads = (\d+)/

/** The threads llama-server said it generates with, from its log so far; null where it did not say. */
export function threadsFromLog(lines: readonly string[]): number | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = SYSTEM_INFO_THREADS.exec(lines[i] as string)
    if (m) return Number(m[1])
  }
  return null
}

/**
 * Combines the /slots poller (live per-slot rates) and the log's timing lines
 * (exact per-request figures) into the GenerationSnapshot. Feed it every
 * supervisor log line; start() it once the server is ready.
 */
export class GenerationTracker {
  private readonly poller: SlotsPoller
  private readonly parser = new TimingLogParser()
  private readonly rolling: ProfileRollingStore
  private readonly perSecond: PerSecondHistory
  private readonly requests: RingBuffer<RequestTimings>
  private readonly listeners = new Listeners<GenerationTrackerEvents>()
  private readonly slowAfterMs: number
  private readonly profileId: string
  private slots: readonly RatedSlot[] = []
  private pollState: SlotsPollState = 'idle'
  private pollDetail: string | null = null
  private last: RequestTimings | null = null
  private threads: number | null = null
  private readonly slotLog = new Map<number, SlotLogInfo>()
  private readonly contextAtRelease = new Map<number, number>()

  private readonly energyJ: ((fromMs: number, toMs: number) => number | null) | null

  constructor(options: GenerationTrackerOptions) {
    this.profileId = options.profileId
    this.poller = new SlotsPoller(options)
    this.rolling = options.rolling ?? new ProfileRollingStore()
    this.slowAfterMs = options.slowAfterMs ?? 1500
    this.perSecond = new PerSecondHistory(options.historySeconds ?? 300)
    this.requests = new RingBuffer(options.historyRequests ?? 100)
    this.threads = options.threads ?? null
    this.energyJ = options.energyJ ?? null
    this.poller.on('poll', (outcome) => this.onPoll(outcome))
  }

  on<K extends keyof GenerationTrackerEvents>(event: K, listener: GenerationTrackerEvents[K]): () => void {
    return this.listeners.on(event, listener)
  }

  /** Starts polling /slots; `signal` (the supervisor's getRequestSignal()) stops it. */
  start(signal?: AbortSignal | null): void {
    this.poller.start(signal)
    if (this.poller.isRunning && this.pollState === 'idle') this.pollState = 'ok'
  }

  /**
   * The server sleeps (asleep) or woke up: while it sleeps nothing is asked of
   * it (a /slots poll would wake it) and no slot is shown; once awake, polling
   * starts again at once.
   */
  setAsleep(asleep: boolean): void {
    if (asleep) {
      this.poller.suspend()
      this.slots = []
    } else {
      this.poller.resume()
    }
  }

  /** Stops polling and completes a record still waiting for its last line. */
  async stop(): Promise<void> {
    await this.poller.stop()
    this.pollState = 'stopped'
    this.handle(this.parser.flush())
  }

  /** One line of llama-server output (stdout or stderr). Never throws. */
  feedLogLine(line: string): void {
    const threads = SYSTEM_INFO_THREADS.exec(line)
    if (threads) this.threads = Number(threads[1])
    this.handle(this.parser.feed(line))
  }

  snapshot(): GenerationSnapshot {
    const now = performance.now()
    if (!this.poller.isRunning && this.pollState !== 'idle') this.pollState = 'stopped'
    const waited = this.poller.inFlightForMs(now)
    const slow = this.pollState === 'slow' || (waited !== null && waited > this.slowAfterMs)
    const slots = this.slots.map((s) => this.slotView(s, now))
    const busy = slots.filter((s) => s.state !== 'idle')
    const rates = busy.map((s) => s.tokensPerSecond).filter((r): r is number => r !== null)
    const active = busy.length > 0 || (slow && this.poller.isRunning)
    let tokensPerSecond: number | null = rates.length > 0 ? rates.reduce((a, b) => a + b, 0) : null
    if (tokensPerSecond === null && (active || this.pollState !== 'ok')) tokensPerSecond = this.logRate(now)
    const fullest = this.fullestSlot(slots)
    return {
      active: active || (tokensPerSecond !== null && this.pollState !== 'ok'),
      tokensPerSecond,
      slots,
      last: this.last,
      contextUsed: fullest?.contextUsed ?? null,
      contextSize: fullest?.contextSize ?? null,
      poll: { state: slow && this.pollState === 'ok' ? 'slow' : this.pollState, detail: this.pollDetail },
      rolling: this.rolling.figures(this.profileId),
      threads: this.threads,
    }
  }

  /** The bounded per-second rates and finished requests, oldest first. */
  history(): GenerationHistory {
    return { perSecond: this.perSecond.points(), requests: this.requests.tail() }
  }

  private onPoll(outcome: PollOutcome): void {
    this.handle(this.parser.flushStale(PENDING_RECORD_MS))
    if (outcome.kind !== 'ok') {
      this.pollState = outcome.kind
      this.pollDetail = outcome.detail
      // Slow: keep showing what we knew (the server is busy). Otherwise the slots are unknown.
      if (outcome.kind !== 'slow') this.slots = []
      return
    }
    this.pollState = 'ok'
    this.pollDetail = null
    this.slots = outcome.slots
    const busy = outcome.slots.filter((s) => s.reading.processing)
    const perSlot = new Map<number, number>()
    for (const s of busy) if (s.tokensPerSecond !== null) perSlot.set(s.reading.id, s.tokensPerSecond)
    const total = busy.length === 0 ? 0 : perSlot.size > 0 ? [...perSlot.values()].reduce((a, b) => a + b, 0) : null
    const time = Date.now()
    if (total !== null) this.perSecond.add(time, total, busy.length)
    this.listeners.emit('rate', { time, tokensPerSecond: busy.length === 0 ? null : total, perSlot })
  }

  private handle(events: readonly TimingEvent[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'request': {
          const time = Date.now()
          const energyJ = this.energyJ?.(time - e.record.promptMs - e.record.predictedMs, time) ?? null
          const timings: RequestTimings = { time, ...e.record, energyJ }
          this.last = timings
          this.requests.push(timings)
          this.rolling.add(this.profileId, timings)
          this.listeners.emit('request', timings)
          break
        }
        case 'task-start':
          this.slotLog.set(e.slotId, { taskId: e.taskId, promptProgress: null, liveTokensPerSecond: null, liveAt: 0 })
          this.poller.pokeSoon()
          break
        case 'task-end':
          this.contextAtRelease.set(e.slotId, e.contextTokens)
          this.slotLog.delete(e.slotId)
          this.poller.pokeSoon()
          break
        case 'live':
          this.slotLog.set(e.slotId, {
            taskId: e.taskId,
            promptProgress: 1,
            liveTokensPerSecond: e.tokensPerSecond3s,
            liveAt: performance.now(),
          })
          break
        case 'prompt-progress': {
          const info = this.slotLog.get(e.slotId)
          if (info && info.taskId === e.taskId) info.promptProgress = e.progress
          else this.slotLog.set(e.slotId, { taskId: e.taskId, promptProgress: e.progress, liveTokensPerSecond: null, liveAt: 0 })
          break
        }
      }
    }
  }

  private slotView(s: RatedSlot, now: number): SlotGeneration {
    const r = s.reading
    const state = !r.processing ? 'idle' : (r.nDecoded ?? 0) > 0 ? 'generating' : 'prompt'
    const log = this.slotLog.get(r.id)
    const logForTask = log && (r.taskId === null || log.taskId === r.taskId) ? log : null
    let promptProgress: number | null = null
    if (state === 'prompt') {
      if (logForTask?.promptProgress != null) promptProgress = logForTask.promptProgress
      else if (r.nPromptTokens && r.nPromptTokensProcessed !== null) {
        promptProgress = Math.min(1, Math.max(0, (r.nPromptTokensProcessed + (r.nPromptTokensCache ?? 0)) / r.nPromptTokens))
      }
    }
    let tokensPerSecond = s.tokensPerSecond
    if (tokensPerSecond === null && state === 'generating' && logForTask && now - logForTask.liveAt < LOG_RATE_FRESH_MS)
      tokensPerSecond = logForTask.liveTokensPerSecond
    return {
      id: r.id,
      taskId: r.processing ? r.taskId : null,
      state,
      tokensPerSecond: state === 'generating' ? tokensPerSecond : null,
      decoded: r.processing ? r.nDecoded : null,
      remaining: r.processing ? r.nRemain : null,
      promptProgress,
      contextUsed: r.processing && r.nPromptTokens !== null ? r.nPromptTokens : (this.contextAtRelease.get(r.id) ?? null),
      contextSize: r.nCtx,
    }
  }

  /** The v0.5.0 live log lines' rate, for servers whose /slots we cannot read. */
  private logRate(now: number): number | null {
    let sum: number | null = null
    for (const info of this.slotLog.values()) {
      if (info.liveTokensPerSecond !== null && now - info.liveAt < LOG_RATE_FRESH_MS) sum = (sum ?? 0) + info.liveTokensPerSecond
    }
    return sum
  }

  private fullestSlot(slots: readonly SlotGeneration[]): SlotGeneration | null {
    let best: SlotGeneration | null = null
    let bestRatio = -1
    for (const s of slots) {
      const ratio = s.contextUsed !== null && s.contextSize ? s.contextUsed / s.contextSize : s.contextUsed !== null ? 0 : -0.5
      if (ratio > bestRatio) {
        best = s
        bestRatio = ratio
      }
    }
    return best
  }
}
