import { describe, expect, it } from 'vitest'
import type { SlotGeneration } from '../contract/generation'
import { estimateSwitch, pendingSwitchSentence, type SwitchEstimateInput } from './switch-estimate'

const slot = (over: Partial<SlotGeneration>): SlotGeneration => ({
  id: 0,
  taskId: 1,
  state: 'generating',
  tokensPerSecond: 10,
  decoded: 100,
  remaining: 200,
  promptProgress: null,
  contextUsed: null,
  contextSize: null,
  ...over,
})

const input = (over: Partial<SwitchEstimateInput>): SwitchEstimateInput => ({
  runningRequests: 2,
  slots: [],
  medianTokensPerSecond: null,
  residencyLeftS: 0,
  drainLeftS: 60,
  ...over,
})

describe('the estimate of a waiting switch', () => {
  it("takes the longest of the running requests: tokens left over each slot's own rate", () => {
    const slots = [slot({ id: 0, remaining: 200, tokensPerSecond: 10 }), slot({ id: 1, remaining: 50, tokensPerSecond: 25 })]
    expect(estimateSwitch(input({ slots }))).toEqual({ estimateS: 20, when: 'After 2 running requests, about 20 s.' })
  })

  it('says one request in the singular', () => {
    expect(estimateSwitch(input({ runningRequests: 1, slots: [slot({ remaining: 45, tokensPerSecond: 9 })] }))).toEqual({
      estimateS: 5,
      when: 'After 1 running request, about 5 s.',
    })
  })

  it("gives a slot without a live rate yet the other slots' rate, else the profile's median", () => {
    const withOther = [slot({ id: 0, remaining: 100, tokensPerSecond: null, state: 'prompt' }), slot({ id: 1, remaining: 10 })]
    expect(estimateSwitch(input({ slots: withOther })).estimateS).toBe(10)
    const alone = [slot({ remaining: 100, tokensPerSecond: null, state: 'prompt' })]
    expect(estimateSwitch(input({ runningRequests: 1, slots: alone, medianTokensPerSecond: 4 })).estimateS).toBe(25)
  })

  it('says only the drain limit when a request has no max_tokens (n_remain -1)', () => {
    const slots = [slot({ id: 0 }), slot({ id: 1, remaining: -1 })]
    expect(estimateSwitch(input({ slots }))).toEqual({ estimateS: null, when: 'After 2 running requests (at most 60 s).' })
  })

  it('says only the drain limit when no rate is known, or when a request has not reached a slot', () => {
    const noRate = [slot({ tokensPerSecond: null }), slot({ id: 1, tokensPerSecond: null })]
    expect(estimateSwitch(input({ slots: noRate })).when).toBe('After 2 running requests (at most 60 s).')
    expect(estimateSwitch(input({ slots: [slot({})] })).when).toBe('After 2 running requests (at most 60 s).')
    expect(estimateSwitch(input({ slots: [] })).estimateS).toBeNull()
  })

  it('bounds the estimate by the drain limit, which cuts what still runs', () => {
    const slots = [slot({ remaining: 10_000, tokensPerSecond: 10 })]
    expect(estimateSwitch(input({ runningRequests: 1, slots, drainLeftS: 60 }))).toEqual({
      estimateS: 60,
      when: 'After 1 running request (at most 60 s, the drain limit).',
    })
  })

  it("waits for the running profile's minimum residency when it is longer than its requests", () => {
    const slots = [slot({ remaining: 30, tokensPerSecond: 10 })]
    expect(estimateSwitch(input({ runningRequests: 1, slots, residencyLeftS: 12 })).when).toBe('After 1 running request, about 12 s.')
    expect(estimateSwitch(input({ runningRequests: 0, residencyLeftS: 12 })).when).toBe(
      "After the running profile's minimum time loaded, about 12 s.",
    )
    expect(estimateSwitch(input({ runningRequests: 0 })).when).toBe('Now.')
  })

  it('puts the estimate into one sentence naming both profiles', () => {
    const estimate = estimateSwitch(input({ slots: [slot({}), slot({ id: 1 })] }))
    expect(pendingSwitchSentence('b', 'a', estimate, 2)).toBe(
      'Profile "b" replaces "a" after 2 running requests, about 20 s; "Switch now" cuts them.',
    )
    expect(pendingSwitchSentence('b', 'a', estimateSwitch(input({ runningRequests: 0 })), 0)).toBe(
      'Profile "b" replaces "a" now; "Switch now" skips the wait.',
    )
  })
})
