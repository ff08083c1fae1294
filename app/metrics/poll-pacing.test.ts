import { describe, expect, it } from 'vitest'
import type { RatedSlot } from './slot-rates'
import { idlePollDelay, nextPollDelay } from './slots-poller'

const pacing = { busyIntervalMs: 500, idleIntervalMs: 1000, firstRateDelayMs: 250, promptIntervalMs: 100 }

function slot(id: number, processing: boolean, nDecoded: number | null, tokensPerSecond: number | null = null): RatedSlot {
  return {
    reading: {
      id,
      taskId: processing ? id + 10 : null,
      processing,
      nDecoded,
      nRemain: null,
      nPromptTokens: null,
      nPromptTokensProcessed: null,
      nPromptTokensCache: null,
      nCtx: 4096,
    },
    tokensPerSecond,
  }
}

describe('nextPollDelay', () => {
  it('idles slowly, catches the first token of a prompt quickly, then rates at the first-rate delay and the busy pace', () => {
    expect(nextPollDelay([], pacing)).toBe(1000)
    expect(nextPollDelay([slot(0, false, null), slot(1, false, 0)], pacing)).toBe(1000)
    expect(nextPollDelay([slot(0, true, 0)], pacing)).toBe(100)
    expect(nextPollDelay([slot(0, true, null)], pacing)).toBe(100)
    expect(nextPollDelay([slot(0, true, 3)], pacing)).toBe(250)
    expect(nextPollDelay([slot(0, true, 40, 60)], pacing)).toBe(500)
  })

  it('does not poll a generating slot at the prompt pace while a neighbour reads its prompt', () => {
    // 100 ms intervals would make the generating slot's figure jump by whole tokens.
    expect(nextPollDelay([slot(0, true, 40, 60), slot(1, true, 0)], pacing)).toBe(250)
    expect(nextPollDelay([slot(0, true, 40, 60), slot(1, true, 20, 55)], pacing)).toBe(500)
  })

  it('slows a long prompt to the first-rate delay after its first second', () => {
    expect(nextPollDelay([slot(0, true, 0)], pacing, 999)).toBe(100)
    expect(nextPollDelay([slot(0, true, 0)], pacing, 1000)).toBe(250)
    expect(nextPollDelay([slot(0, true, 0)], { ...pacing, fastPromptMs: 3000 }, 2000)).toBe(100)
  })

  it('never polls slower than the busy pace while busy', () => {
    const slowBusy = { ...pacing, busyIntervalMs: 80 }
    expect(nextPollDelay([slot(0, true, 0)], slowBusy)).toBe(80)
    expect(nextPollDelay([slot(0, true, 3)], slowBusy)).toBe(80)
  })
})

describe('idlePollDelay', () => {
  it('waits the idle interval after the first idle answer, then doubles up to the maximum', () => {
    const idle = { idleIntervalMs: 1000, idleMaxIntervalMs: 8000 }
    expect([1, 2, 3, 4, 5, 50].map((n) => idlePollDelay(n, idle))).toEqual([1000, 2000, 4000, 8000, 8000, 8000])
  })
})
