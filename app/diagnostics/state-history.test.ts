import { describe, expect, it } from 'vitest'
import type { ExitInfo, ServerStatus } from '../contract/server-state'
import { STATE_HISTORY_CAPACITY, StateHistory } from './state-history'
import { serverStatus } from '../../test/helpers/server-status'

const exit = (reason: string): ExitInfo => ({ code: 1, signal: null, reason, hint: null, kind: 'crashed', problem: null })
const status = (state: ServerStatus['state'], lastExit: ExitInfo | null = null): ServerStatus =>
  serverStatus(state, { profileId: 'p', ...(lastExit ? { lastExit } : {}) })

describe('StateHistory', () => {
  it('keeps one entry per change of state, and one more when a new exit comes with the same state', () => {
    let now = 1000
    const h = new StateHistory(() => now++)
    const crash = exit('crashed with SIGSEGV')
    const again = exit('again')
    const seen = [status('starting'), status('starting'), status('ready'), status('backoff', crash), status('backoff', crash)]
    seen.push(status('backoff', again))
    for (const s of seen) h.record(s)
    expect(h.list().map((t) => [t.at, t.state, t.exit])).toEqual([
      [1000, 'starting', null],
      [1001, 'ready', null],
      [1002, 'backoff', 'crashed with SIGSEGV'],
      [1003, 'backoff', 'again'],
    ])
  })

  it(`keeps the last ${STATE_HISTORY_CAPACITY}`, () => {
    const h = new StateHistory()
    for (let i = 0; i < STATE_HISTORY_CAPACITY + 7; i++) h.record(status(i % 2 === 0 ? 'starting' : 'ready'))
    expect(h.list()).toHaveLength(STATE_HISTORY_CAPACITY)
    expect(h.list().at(-1)?.state).toBe('starting')
  })
})
