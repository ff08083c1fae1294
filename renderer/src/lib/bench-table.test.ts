import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BenchReport, BenchResult, BenchRun } from '../../../app/contract/bench'
import { barWidths, benchTableRows } from './bench-table'

function run(prompt: string, tokensPerSecond: number, disturbed = false): BenchRun {
  return {
    prompt,
    round: 0,
    index: 0,
    startedAt: 0,
    wallMs: 100,
    promptTokens: 20,
    promptMs: 10,
    promptTokensPerSecond: tokensPerSecond * 4,
    generatedTokens: 32,
    generationMs: 200,
    tokensPerSecond,
    draftTokens: null,
    draftAccepted: null,
    draftAcceptance: null,
    peakVramUsedMiB: null,
    minFreeVramMiB: null,
    maxGpuTemperatureC: null,
    throttleReasons: [],
    cpuSystemPct: null,
    cpuServerPct: null,
    heavyApps: disturbed ? ['chrome'] : [],
    disturbed,
    disturbedReasons: disturbed ? ['chrome was busy'] : [],
  }
}

function result(id: string, rates: Readonly<Record<string, number>>, disturbedPrompt: string | null = null): BenchResult {
  const prompts = Object.entries(rates)
  return {
    profileId: id,
    profileName: id,
    label: id,
    exe: 'llama-server',
    args: [],
    fork: null,
    model: null,
    draftModel: null,
    kvCache: 'f16/f16',
    nCpuMoe: null,
    runs: prompts.map(([p, v]) => run(p, v, p === disturbedPrompt)),
    median: { tokensPerSecond: prompts[0]?.[1] ?? null, promptTokensPerSecond: null, draftAcceptance: null },
    medianOver: 'all',
    tokensPerSecondSpread: null,
    promptTokensPerSecondSpread: null,
    prompts: prompts.map(([p, v]) => ({
      prompt: p,
      runs: 1,
      median: { tokensPerSecond: v, promptTokensPerSecond: v * 4, draftAcceptance: null },
      tokensPerSecondSpread: null,
      promptTokensPerSecondSpread: null,
      roundMedians: [v],
    })),
    disturbedRuns: disturbedPrompt ? 1 : 0,
    minFreeVramMiB: null,
    peakVramUsedMiB: null,
    loadMs: null,
    previous: null,
  }
}

function report(results: BenchResult[]): BenchReport {
  return {
    kind: results.length > 1 ? 'compare' : 'bench',
    createdAt: '2026-11-30T09:00:00Z',
    hardware: { platform: 'linux', release: '6', cpuModel: 'cpu', cpuCores: 2, ramTotalMiB: 1, gpus: [], gpuSource: null },
    config: { runs: 1, rounds: 1, tokens: 32, seed: 1, prompts: ['narrative', 'code'], warmupTokens: 8 },
    results,
    ratios: [],
    file: null,
    notes: [],
    tune: null,
  }
}

describe('benchTableRows', () => {
  it('gives profile × prompt rows with ratios against the first profile on the same prompt and flags disturbed runs', () => {
    const rows = benchTableRows(report([result('a', { narrative: 100, code: 80 }), result('b', { narrative: 150, code: 40 }, 'code')]))
    expect(
      rows.map((r) => [r.label, r.prompt, r.tokensPerSecond, r.tokensPerSecondRatio, r.promptTokensPerSecondRatio, r.disturbedRuns]),
    ).toEqual([
      ['a', 'narrative', 100, null, null, 0],
      ['a', 'code', 80, null, null, 0],
      ['b', 'narrative', 150, 1.5, 1.5, 0],
      ['b', 'code', 40, 0.5, 0.5, 1],
    ])
    expect(rows[3]?.disturbedReasons).toEqual(['chrome was busy'])
  })

  it("gives each row the GPU's energy per 1,000 tokens where the report measured it, and null for an older report without it", () => {
    const measured = result('gpu', { narrative: 100 })
    const withEnergy: BenchResult = {
      ...measured,
      prompts: measured.prompts.map((p) => ({ ...p, median: { ...p.median, joulesPer1000Tokens: 412.5 } })),
    }
    const rows = benchTableRows(report([withEnergy, result('old', { narrative: 90 })]))
    expect(rows.map((r) => r.joulesPer1000Tokens)).toEqual([412.5, null])
  })

  it('bar widths are proportional, the fastest row at 100 %', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.1, max: 5000, noNaN: true }), { minLength: 1, maxLength: 8 }), (rates) => {
        const rows = benchTableRows(report(rates.map((v, i) => result(`p${i}`, { narrative: v }))))
        const widths = barWidths(rows)
        const max = Math.max(...rates)
        expect(Math.max(...widths)).toBeCloseTo(100, 9)
        widths.forEach((w, i) => expect(w).toBeCloseTo(((rates[i] as number) / max) * 100, 9))
      }),
    )
  })
})
