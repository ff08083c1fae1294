import type { ServerStateKind } from '../contract/server-state'

/**
 * Every allowed edge of the supervisor's state machine. Anything else is a bug
 * in the supervisor and throws (see ServerSupervisor.transition).
 */
export const TRANSITIONS: { readonly [K in ServerStateKind]: readonly ServerStateKind[] } = {
  stopped: ['starting', 'errored'],
  // starting: spawned, socket not bound yet (connection refused).
  starting: ['loading', 'ready', 'stopping', 'backoff', 'crashloop', 'errored'],
  // loading: /health answers 503 while the model loads.
  loading: ['ready', 'stopping', 'backoff', 'crashloop', 'errored'],
  // ready ⇄ sleeping: the log's "entering/exiting sleeping state" (--sleep-idle-seconds).
  ready: ['sleeping', 'stopping', 'backoff', 'crashloop', 'errored'],
  // sleeping: the process lives with its model unloaded; no readiness timeout, no restart.
  sleeping: ['ready', 'stopping', 'backoff', 'crashloop', 'errored'],
  stopping: ['stopped'],
  backoff: ['starting', 'stopped', 'errored'],
  crashloop: ['starting', 'stopped', 'errored'],
  errored: ['starting', 'stopped'],
}

export function isValidTransition(from: ServerStateKind, to: ServerStateKind): boolean {
  return TRANSITIONS[from].includes(to)
}

