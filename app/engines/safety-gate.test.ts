import { describe, expect, it } from 'vitest'
import { judgeUpdate, type GateFigures } from './safety-gate'

const figures = (decode: number, prompt: number, cv = 1): GateFigures => ({
  median: { tokensPerSecond: decode, promptTokensPerSecond: prompt },
  tokensPerSecondSpread: { robustCvPct: cv },
  promptTokensPerSecondSpread: { robustCvPct: cv },
})

describe('the safety gate (judgeUpdate)', () => {
  it('adopts a new engine that is faster', () => {
    const v = judgeUpdate(figures(20, 300), figures(22, 310))
    expect(v.adopt).toBe(true)
    expect(v.reasons).toEqual([
      'generation 22.0 vs 20.0 tok/s (+10.0 %, noise 3.0 %)',
      'prompt processing 310.0 vs 300.0 tok/s (+3.3 %, noise 3.0 %)',
    ])
  })

  it('adopts one that is slower only within the run’s noise', () => {
    expect(judgeUpdate(figures(20, 300, 6), figures(19, 290, 6)).adopt).toBe(true)
  })

  it('refuses one whose generation is slower beyond the noise, saying by how much', () => {
    const v = judgeUpdate(figures(20, 300), figures(17, 300))
    expect(v.adopt).toBe(false)
    expect(v.reasons[0]).toBe("generation is 15.0 % slower on the new engine (17.0 vs 20.0 tok/s), more than this run's noise of 3.0 %")
  })

  it('judges prompt processing separately: a faster decode does not hide a slower prompt', () => {
    const v = judgeUpdate(figures(20, 300), figures(25, 200))
    expect(v.adopt).toBe(false)
    expect(v.reasons[1]).toMatch(/^prompt processing is 33\.3 % slower/)
  })

  it('a noisier run allows more: the larger robust spread of the two', () => {
    expect(judgeUpdate(figures(20, 300, 2), figures(18.5, 300, 8)).adopt).toBe(true)
    expect(judgeUpdate(figures(20, 300, 2), figures(18.5, 300, 2)).adopt).toBe(false)
  })

  it('refuses a new engine that gave no figure', () => {
    const v = judgeUpdate(figures(20, 300), { ...figures(20, 300), median: { tokensPerSecond: null, promptTokensPerSecond: 300 } })
    expect(v.adopt).toBe(false)
    expect(v.reasons[0]).toBe('the new engine gave no generation figure (the old one: 20.0 tok/s)')
  })
})
