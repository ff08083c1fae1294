import type { BenchFigures, BenchRun, BenchSpread } from '../contract/bench'
import { median } from '../metrics/median'
import { joulesPerThousandTokens } from '../telemetry/gpu/energy-meter'

/** Min, max, MAD and the relative spreads of a set of values; null when empty. */
export function spreadOf(values: readonly number[]): BenchSpread | null {
  const finite = values.filter(Number.isFinite)
  const m = median(finite)
  if (m === null) return null
  const mad = median(finite.map((v) => Math.abs(v - m))) ?? 0
  const min = Math.min(...finite)
  const max = Math.max(...finite)
  const pct = (x: number): number => (m === 0 ? 0 : (x / m) * 100)
  return { min, max, mad, rangePct: pct(max - min), robustCvPct: pct(1.4826 * mad) }
}

/** Medians of the runs' rates and draft acceptance (acceptance over the runs that drafted). */
export function figuresOf(runs: readonly BenchRun[]): BenchFigures {
  return {
    promptTokensPerSecond: median(runs.map((r) => r.promptTokensPerSecond)),
    tokensPerSecond: median(runs.map((r) => r.tokensPerSecond)),
    draftAcceptance: median(runs.flatMap((r) => (r.draftAcceptance === null ? [] : [r.draftAcceptance]))),
    joulesPer1000Tokens: joulesPerThousandTokens(runs.map((r) => ({ energyJ: r.energyJ, predictedTokens: r.generatedTokens }))),
  }
}

/** The runs medians are taken over: the undisturbed ones when any exist. */
export function medianRuns(runs: readonly BenchRun[]): { runs: readonly BenchRun[]; over: 'clean' | 'all' } {
  const clean = runs.filter((r) => !r.disturbed)
  return clean.length > 0 ? { runs: clean, over: 'clean' } : { runs, over: 'all' }
}

/** a / b, or null when either is missing or b is 0. */
export function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : a / b
}

export function minOrNull(values: readonly (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null)
  return v.length ? Math.min(...v) : null
}

export function maxOrNull(values: readonly (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null)
  return v.length ? Math.max(...v) : null
}
