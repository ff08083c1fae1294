import type { HealthResult } from './health'
import { abortableSleep } from './supervised-run'
import { judgeWatchdogTick, nextProbeDelayMs, unresponsiveReason, type WatchdogOptions, type WatchdogTick } from './watchdog-policy'

export interface ReadyWatchdogDeps {
  readonly options: WatchdogOptions
  /** Aborted when the server is stopped or exits: the watch ends without a verdict. */
  readonly signal: AbortSignal
  /** One GET /health, until it is answered or `tickEnd` aborts it (then it resolves 'down'). */
  readonly probe: (tickEnd: AbortSignal) => Promise<HealthResult>
  /** How many log lines the server has printed so far: lines during a tick are progress. */
  readonly linesSeen: () => number
  /** Calls the listener at the server's next log line (until unsubscribed): a line ends an idle pause early. */
  readonly onLine: (listener: () => void) => () => void
  /** The server is asleep (--sleep-idle-seconds): /health would not wake it, but there is nothing to watch. */
  readonly asleep: () => boolean
  /**
   * Whether the process is stopped (SIGSTOP: it cannot answer), where the platform shows it cheaply; null: unknown.
   * Read at each tick's end, and once per interval within an idle tick, so a server frozen while idle is a miss
   * within the interval, not at the end of the idle tick (QUIET_PROBE_FACTOR intervals).
   */
  readonly stopped?: () => boolean | null
  /**
   * The pauses of an idle tick (longer than the interval, and its steps): on the idle beat, so that they wake the
   * process with the core's tick instead of beside it; a plain timer by default.
   */
  readonly idleSleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** Each tick and its verdict, for the tests and the log. */
  readonly onTick?: (tick: WatchdogTick, misses: number) => void
}

/**
 * Watches a ready server until it stops answering, one tick after another: a tick asks /health at its
 * start and gives its verdict (judgeWatchdogTick) at its end, where a probe still unanswered is a miss.
 * Resolves to the reason once it is hung, or to null when the signal ends the watch first. Nothing is
 * probed while the server sleeps. A tick lasts the interval, or longer for an idle server
 * (nextProbeDelayMs), until its next log line, so a request that hangs it is watched at the usual pace.
 *
 * Each tick has one timer, armed in Node's timer phase and never cleared early: a probe timeout cleared by
 * the answer still woke the process at its first expiry (libuv is not told), about 1 ms of CPU per wake here.
 */
export async function watchUntilHung(deps: ReadyWatchdogDeps): Promise<string | null> {
  const { options, signal } = deps
  let misses = 0
  // Lines since the last verdict.
  let linesBefore = deps.linesSeen()
  let tickMs = options.intervalMs
  while (!signal.aborted) {
    const asleepBefore = deps.asleep()
    const answered = await oneTick(deps, tickMs, asleepBefore)
    if (signal.aborted) return null
    // A server that fell asleep (or woke up) during the probe was busy with that, not hung.
    const linesNow = deps.linesSeen()
    const tick: WatchdogTick = { asleep: asleepBefore || deps.asleep(), answered, progressed: linesNow !== linesBefore }
    linesBefore = linesNow
    const verdict = judgeWatchdogTick(misses, tick, options)
    misses = verdict.misses
    deps.onTick?.(tick, misses)
    if (verdict.hung) return unresponsiveReason(options)
    tickMs = nextProbeDelayMs(tick, options)
  }
  return null
}

/**
 * One tick of `ms`: the probe (unless asleep) and the pause, ended together by the tick's timer, by the watch's
 * signal, or (a tick longer than the interval: an idle server) by the server's next log line or a look at its
 * process state that finds it stopped. Resolves to whether /health answered (false once found stopped).
 */
async function oneTick(deps: ReadyWatchdogDeps, ms: number, asleep: boolean): Promise<boolean> {
  const tickEnd = new AbortController()
  const end = (): void => tickEnd.abort()
  deps.signal.addEventListener('abort', end, { once: true })
  const unsubscribe = ms > deps.options.intervalMs ? deps.onLine(end) : null
  let answered = false
  let stopped = false
  const probing = asleep ? null : deps.probe(tickEnd.signal).then((r) => void (answered = r.kind !== 'down'))
  try {
    stopped = await pauseOrStopped(deps, ms, asleep, tickEnd.signal)
  } finally {
    end()
    unsubscribe?.()
    deps.signal.removeEventListener('abort', end)
  }
  await probing
  // A stopped process answers nothing from now on, whatever it answered at the tick's start.
  return answered && !stopped && !(deps.stopped?.() === true)
}

/**
 * The pause of a tick. An idle tick (longer than the interval) of an awake server is cut into steps of the interval,
 * each timer armed when the last one fired (none cleared early), and after each step the process state is read:
 * a stopped process ends the tick at once. Resolves to whether it was found stopped.
 */
async function pauseOrStopped(deps: ReadyWatchdogDeps, ms: number, asleep: boolean, signal: AbortSignal): Promise<boolean> {
  const step = deps.options.intervalMs
  if (ms <= step) {
    await abortableSleep(ms, signal)
    return false
  }
  const sleep = deps.idleSleep ?? abortableSleep
  if (!deps.stopped || asleep) {
    await sleep(ms, signal)
    return false
  }
  for (let left = ms; left > 0 && !signal.aborted; left -= step) {
    await sleep(Math.min(step, left), signal)
    if (!signal.aborted && left > step && deps.stopped() === true) return true
  }
  return false
}
