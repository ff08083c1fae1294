import { DEFAULT_SETTINGS } from '../contract/settings'
import { formatSeconds } from '../lib/process/process-group'

/**
 * When a ready llama-server counts as hung: the pure rule behind the watchdog
 * (ready-watchdog.ts). Readiness is watched until ready; after that, /health is
 * asked every intervalMs (with that as its timeout) and `misses` ticks in a row
 * without an answer and without progress mean the server stopped answering.
 */
export interface WatchdogOptions {
  /** Time between two /health probes, and each probe's timeout; 0 turns the watchdog off. */
  readonly intervalMs: number
  /** Ticks in a row without an answer and without progress before the server is stopped and restarted. */
  readonly misses: number
}

/**
 * The settings' defaults (watchdogIntervalS 10, watchdogMisses 3): a hang is found after about 30 s, as with 5 s × 6,
 * for half the probes (each costs the app ≈ 2 ms of CPU on 2 busy cores: 0.2 ms/s at 10 s, `npm run bench idle`).
 */
export const DEFAULT_WATCHDOG: WatchdogOptions = {
  intervalMs: DEFAULT_SETTINGS.watchdogIntervalS * 1000,
  misses: DEFAULT_SETTINGS.watchdogMisses,
}

/** What one tick saw. */
export interface WatchdogTick {
  /** The log said the model is unloaded (--sleep-idle-seconds): not probed, never hung. */
  readonly asleep: boolean
  /** /health gave any HTTP answer (a 503 too: the HTTP thread lives). */
  readonly answered: boolean
  /**
   * The server printed log lines during the tick (prompt processing progress,
   * a finished request…). A busy server whose HTTP threads are all taken by
   * requests does not answer /health in time, but it is working, not hung.
   */
  readonly progressed: boolean
}

export interface WatchdogVerdict {
  /** Misses in a row after this tick. */
  readonly misses: number
  readonly hung: boolean
}

/** @param missesBefore misses in a row before this tick */
export function judgeWatchdogTick(missesBefore: number, tick: WatchdogTick, options: WatchdogOptions = DEFAULT_WATCHDOG): WatchdogVerdict {
  if (tick.asleep || tick.answered || tick.progressed) return { misses: 0, hung: false }
  const misses = missesBefore + 1
  return { misses, hung: misses >= Math.max(1, options.misses) }
}

/**
 * A server that answered (or sleeps) and printed nothing since the last probe is idle: it is probed this many
 * times less often, until its log moves (a request, a wake-up) or a probe goes unanswered. Idle for hours is the common case, and a
 * hang while idle keeps nobody waiting; once a request starts, its log lines bring the usual pace back at once.
 */
export const QUIET_PROBE_FACTOR = 3

/** The pause after this tick before the next probe: `intervalMs`, or QUIET_PROBE_FACTOR times it after a quiet answer. */
export function nextProbeDelayMs(tick: WatchdogTick, options: WatchdogOptions = DEFAULT_WATCHDOG): number {
  const quiet = !tick.progressed && (tick.answered || tick.asleep)
  return quiet ? options.intervalMs * QUIET_PROBE_FACTOR : options.intervalMs
}

/** Whether the watchdog runs at all with these options. */
export function watchdogEnabled(options: WatchdogOptions): boolean {
  return options.intervalMs > 0 && options.misses > 0
}

/** The reason in the state and the log: "llama-server stopped answering for 30 s". */
export function unresponsiveReason(options: WatchdogOptions = DEFAULT_WATCHDOG): string {
  return `llama-server stopped answering for ${formatSeconds(options.intervalMs * options.misses)}`
}
