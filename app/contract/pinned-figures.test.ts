import { describe, expect, it } from 'vitest'
import type { RequestTimings } from './generation'
import { pinnedFigures } from './pinned-figures'

const last: RequestTimings = {
  time: 0,
  slotId: 0,
  taskId: 1,
  promptTokens: 40,
  promptMs: 100,
  promptTokensPerSecond: 400.4,
  predictedTokens: 16,
  predictedMs: 1000,
  predictedTokensPerSecond: 16.04,
  draftTokens: null,
  draftAccepted: null,
  draftAcceptance: null,
}

describe('pinnedFigures', () => {
  it('says nothing before a request or a restart', () => {
    expect(pinnedFigures({ generation: null, restarts: 0 })).toBe('')
    expect(pinnedFigures({ generation: { active: false, tokensPerSecond: null, last: null }, restarts: 0 })).toBe('')
  })

  it('shows the live rate while it generates, else the last request, then the restarts', () => {
    expect(pinnedFigures({ generation: { active: true, tokensPerSecond: 12.34, last }, restarts: 0 })).toBe('12.3 tok/s')
    expect(pinnedFigures({ generation: { active: false, tokensPerSecond: null, last }, restarts: 1 })).toBe(
      'last 16.0 tok/s, prompt 400 tok/s · 1 restart',
    )
    expect(pinnedFigures({ generation: null, restarts: 3 })).toBe('3 restarts')
  })

  it('leaves out a generation speed of a request that generated nothing (an embedding)', () => {
    const prompt = { ...last, predictedTokens: 0, predictedTokensPerSecond: 0 }
    expect(pinnedFigures({ generation: { active: false, tokensPerSecond: null, last: prompt }, restarts: 0 })).toBe('last prompt 400 tok/s')
  })
})
