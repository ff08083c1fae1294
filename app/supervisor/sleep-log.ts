import { intValue, spellingsOf } from '../contract/flag-args'

/**
 * llama-server's --sleep-idle-seconds N (mainline, buun): after N s without a
 * task it unloads the model and logs "entering sleeping state"; the next task
 * reloads it ("exiting sleeping state"). Each is logged twice (by the task
 * queue and by the server), so readers act on the change of state, not the line.
 *
 * Which requests wake it, measured on the pinned build (v0.5.0-dev de3ff81,
 * CPU, tiny model, --sleep-idle-seconds 2): GET /slots wakes it (it is a task
 * in the queue); GET /health, /props (its `is_sleeping` says true), /metrics,
 * /models and /v1/models do not. A completion wakes it and is answered after
 * the reload. So while it sleeps the app must not poll /slots.
 */
export type SleepLogEvent = 'entering' | 'exiting'

const SLEEP_LINE = /\b(entering|exiting) sleeping state\b/

/** Whether a log line says the server went to sleep or woke up; null for any other line. */
export function sleepLogEvent(line: string): SleepLogEvent | null {
  const m = SLEEP_LINE.exec(line)
  return m ? (m[1] as SleepLogEvent) : null
}

/** The launch's --sleep-idle-seconds when it makes the server sleep (a positive number), else null (-1 is llama-server's "never"). */
export function sleepIdleSeconds(args: readonly string[]): number | null {
  const n = intValue(args, spellingsOf('sleep-idle-seconds'))
  return n !== null && n > 0 ? n : null
}
