import type { ServerStateKind } from '../contract/server-state'

/**
 * Every allowed edge of the supervisor's state machine. Anything else is a bug
 * in the supervisor and throws (see ServerSupervisor.transition).
 */
export const TRANSITIONS: { readonly [K in ServerStateKind]: readonly ServerStateKind[] } = {
  stopped: ['starting', 'errored'],
  // starting: spawned, socket not bound yet (connection refused).
  starting: ['downloading', 'loading', 'ready', 'stopping', 'backoff', 'crashloop', 'errored'],
  // downloading: a -hf launch fetching its model (its in-progress blob grows); back to starting when it is in.
  downloading: ['starting', 'loading', 'ready', 'stopping', 'backoff', 'crashloop', 'errored'],
  // loading: /health answers 503 while the model loads.
  // (a -hf llama-server answers 503 before its download shows in the cache: loading → downloading)
  loading: ['downloading', 'ready', 'stopping', 'backoff', 'crashloop', 'errored'],
  // ready ⇄ sleeping: the log's "entering/exiting sleeping state" (--sleep-idle-seconds).
  ready: ['sleeping', 'stopping', 'backoff', 'crashloop', 'errored'],
  // sleeping: the process lives with its model unloaded; no readiness timeout, no restart.
  sleeping: ['ready', 'stopping', 'backoff', 'crashloop', 'errored'],
  // stopping → backoff | crashloop: the watchdog stopped a ready server that stopped answering,
  // and the restart policy decides what follows (restart-policy.ts, ready-watchdog.ts).
  stopping: ['stopped', 'backoff', 'crashloop'],
  backoff: ['starting', 'stopped', 'errored'],
  crashloop: ['starting', 'stopped', 'errored'],
  errored: ['starting', 'stopped'],
}

export function isValidTransition(from: ServerStateKind, to: ServerStateKind): boolean {
  return TRANSITIONS[from].includes(to)
}
