import type { HealthResult } from './health'
import { abortableSleep } from './supervised-run'
import { judgeWatchdogTick, nextProbeDelayMs, unresponsiveReason, type WatchdogOptions, type WatchdogTick } from './watchdog-policy'

export interface ReadyWatchdogDeps {
  readonly options: WatchdogOptions
  /** Aborted when the server is stopped or exits: the watch ends without a verdict. */
  readonly signal: AbortSignal
  /** One GET /health with this timeout. */
  readonly probe: (timeoutMs: number) => Promise<HealthResult>
  /** How many log lines the server has printed so far: lines during a tick are progress. */
  readonly linesSeen: () => number
  /** Calls the listener at the server's next log line (until unsubscribed): a line ends an idle pause early. */
  readonly onLine: (listener: () => void) => () => void
  /** The server is asleep (--sleep-idle-seconds): /health would not wake it, but there is nothing to watch. */
  readonly asleep: () => boolean
  /** Each tick and its verdict, for the tests and the log. */
  readonly onTick?: (tick: WatchdogTick, misses: number) => void
}

/**
 * Watches a ready server until it stops answering: one /health per interval
 * (its timeout is the interval, so a tick never runs late) and the verdict of
 * judgeWatchdogTick. Resolves to the reason once it is hung, or to null when
 * the signal ends the watch first. Nothing is probed while the server sleeps.
 * An idle server is probed less often (nextProbeDelayMs); its next log line
 * ends that longer pause, so a request that hangs it is watched at the usual pace.
 */
export async function watchUntilHung(deps: ReadyWatchdogDeps): Promise<string | null> {
  const { options, signal } = deps
  let misses = 0
  // Lines since the last verdict, the pause between probes included.
  let linesBefore = deps.linesSeen()
  while (!signal.aborted) {
    const startedAt = Date.now()
    const asleepBefore = deps.asleep()
    const answered = asleepBefore ? false : (await deps.probe(options.intervalMs)).kind !== 'down'
    if (signal.aborted) return null
    // A server that fell asleep (or woke up) during the probe was busy with that, not hung.
    const linesNow = deps.linesSeen()
    const tick: WatchdogTick = { asleep: asleepBefore || deps.asleep(), answered, progressed: linesNow !== linesBefore }
    linesBefore = linesNow
    const verdict = judgeWatchdogTick(misses, tick, options)
    misses = verdict.misses
    deps.onTick?.(tick, misses)
    if (verdict.hung) return unresponsiveReason(options)
    const delayMs = nextProbeDelayMs(tick, options)
    if (delayMs === options.intervalMs) await abortableSleep(startedAt + delayMs - Date.now(), signal)
    else await pauseUntilLine(startedAt + delayMs - Date.now(), signal, deps.onLine)
  }
  return null
}

/** Sleeps `ms`, or less when the signal aborts or the server prints a line. */
async function pauseUntilLine(ms: number, signal: AbortSignal, onLine: ReadyWatchdogDeps['onLine']): Promise<void> {
  const pause = new AbortController()
  const endPause = (): void => pause.abort()
  const unsubscribe = onLine(endPause)
  signal.addEventListener('abort', endPause, { once: true })
  try {
    await abortableSleep(ms, pause.signal)
  } finally {
    unsubscribe()
    signal.removeEventListener('abort', endPause)
  }
}
