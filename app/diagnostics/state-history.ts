import type { ServerStateKind, ServerStatus } from '../contract/server-state'
import { RingBuffer } from '../lib/ring-buffer'

/** One state the supervisor entered, with why the last run ended when that changed. */
export interface StateTransition {
  /** Epoch ms. */
  readonly at: number
  readonly state: ServerStateKind
  readonly profileId: string | null
  readonly pid: number | null
  /** The exit's reason when this transition came with a new exit, else null. */
  readonly exit: string | null
  readonly exitCode: number | null
  readonly exitSignal: string | null
}

/** How many transitions a diagnostics bundle shows: a few start/crash/restart cycles. */
export const STATE_HISTORY_CAPACITY = 50

/** The supervisor's recent transitions, fed from its state events (the core records them for diagnostics). */
export class StateHistory {
  private readonly items = new RingBuffer<StateTransition>(STATE_HISTORY_CAPACITY)
  private lastState: ServerStateKind | null = null
  private lastExit: ServerStatus['lastExit'] = null

  constructor(private readonly now: () => number = Date.now) {}

  record(status: ServerStatus): void {
    const newExit = status.lastExit !== null && status.lastExit !== this.lastExit
    if (status.state === this.lastState && !newExit) return
    this.lastState = status.state
    this.lastExit = status.lastExit
    const exit = newExit ? status.lastExit : null
    this.items.push({
      at: this.now(),
      state: status.state,
      profileId: status.profileId,
      pid: status.pid,
      exit: exit ? (exit.reason ?? 'stopped') : null,
      exitCode: exit?.code ?? null,
      exitSignal: exit?.signal ?? null,
    })
  }

  /** Oldest first. */
  list(): readonly StateTransition[] {
    return this.items.tail()
  }
}
