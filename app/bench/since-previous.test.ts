import { describe, expect, it } from 'vitest'
import type { BenchFigures, BenchResult, BenchSpread } from '../contract/bench'
import { regressionNotes } from './since-previous'

const spread = (robustCvPct: number): BenchSpread => ({ min: 0, max: 0, mad: 0, rangePct: 0, robustCvPct })

function result(label: string, now: BenchFigures, before: BenchFigures | null, cv = 2): BenchResult {
  return {
    profileId: label,
    profileName: label,
    label,
    exe: 'llama-server',
    args: ['-m', 'm.gguf'],
    fork: null,
    model: null,
    draftModel: null,
    kvCache: 'f16/f16',
    nCpuMoe: null,
    runs: [],
    median: now,
    medianOver: 'clean',
    tokensPerSecondSpread: spread(cv),
    promptTokensPerSecondSpread: spread(cv),
    prompts: [],
    disturbedRuns: 0,
    minFreeVramMiB: null,
    peakVramUsedMiB: null,
    loadMs: null,
    previous: before === null ? null : { file: 'f.json', createdAt: '2026-11-20T18:04:05.000Z', median: before },
  }
}
const fig = (tokensPerSecond: number | null, promptTokensPerSecond: number | null): BenchFigures => ({
  tokensPerSecond,
  promptTokensPerSecond,
  draftAcceptance: null,
})

describe('regressionNotes', () => {
  it('names a prompt-speed regression alone, with both figures (seed 004: prefill broke, decode did not)', () => {
    expect(regressionNotes([result('ik I-Compact', fig(145, 1900), fig(146, 3060))])).toEqual([
      'ik I-Compact is slower than at its last bench of the same launch on this machine (2026-11-20 18:04): decode 146 → 145 tok/s ' +
        '(−1%), prompt 3060 → 1900 tok/s (−38%). If the engine was updated since, it may have regressed; prompt speed can break alone.',
    ])
  })

  it('stays quiet for changes within 15% or within twice the noise, for gains, and without an earlier bench', () => {
    expect(regressionNotes([result('a', fig(50, 500), fig(56, 560))])).toEqual([]) // −11%
    expect(regressionNotes([result('b', fig(40, 500), fig(50, 500), 12)])).toEqual([]) // −20% inside 2 × 12% noise
    expect(regressionNotes([result('c', fig(80, 900), fig(50, 500))])).toEqual([])
    expect(regressionNotes([result('d', fig(10, 100), null)])).toEqual([])
    expect(regressionNotes([result('e', fig(null, null), fig(50, 500))])).toEqual([])
  })

  it('flags a decode drop too', () => {
    expect(regressionNotes([result('seed', fig(7, 300), fig(39, 310))])[0]).toMatch(/^seed is slower .*decode 39.0 → 7.0 tok\/s \(−82%\)/)
  })
})
