import { beforeEach, describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../app/contract/snapshot'
import { histories, recordGenerationHistory, recordSnapshot } from './chart-histories'

const ready = {
  state: 'ready',
  profileId: 'p',
  pid: 1,
  host: '127.0.0.1',
  port: 8080,
  exe: 'llama-server',
  readySince: 0,
  sleepIdleSeconds: null,
  lastExit: null,
  restarts: 0,
} as const
const snapshot = (timeMs: number, tokensPerSecond: number): Snapshot => ({
  time: timeMs,
  server: ready,
  generation: { tokensPerSecond } as Snapshot['generation'],
  gpu: null,
  cpu: null,
  warnings: [],
})

describe('chart histories', () => {
  beforeEach(() => Object.values(histories).forEach((h) => h.clear()))

  it("a window opened mid-run charts the core's past rates (generation:history) before the live ones", () => {
    // The first pushed snapshot may arrive before the history's answer.
    recordSnapshot(snapshot(10_500, 30))
    recordGenerationHistory({
      perSecond: [7, 8, 9, 10].map((s) => ({ time: s * 1000, tokensPerSecond: s, activeSlots: 1 })),
      requests: [],
    })
    recordSnapshot(snapshot(11_200, 31))
    expect(histories.tokens.data()).toEqual([
      [7, 8, 9, 10, 11],
      [7, 8, 9, 30, 31],
    ])
  })
})
