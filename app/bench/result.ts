import type { BenchPromptSummary, BenchRatio, BenchResult, BenchRun, BenchTarget } from '../contract/bench'
import { median } from '../metrics/median'
import { figuresOf, maxOrNull, medianRuns, minOrNull, ratio, spreadOf } from './stats'

export interface ResultParts {
  readonly target: BenchTarget
  readonly runs: readonly BenchRun[]
  readonly loadMs: number | null
  readonly minFreeVramMiB: number | null
  readonly peakVramUsedMiB: number | null
  readonly previous?: BenchResult['previous']
}

function promptSummary(prompt: string, runs: readonly BenchRun[]): BenchPromptSummary {
  const { runs: used } = medianRuns(runs)
  const rounds = [...new Set(runs.map((r) => r.round))].sort((a, b) => a - b)
  return {
    prompt,
    runs: runs.length,
    median: figuresOf(used),
    tokensPerSecondSpread: spreadOf(used.map((r) => r.tokensPerSecond)),
    promptTokensPerSecondSpread: spreadOf(used.map((r) => r.promptTokensPerSecond)),
    roundMedians: rounds.flatMap((round) => {
      const m = median(medianRuns(runs.filter((r) => r.round === round)).runs.map((r) => r.tokensPerSecond))
      return m === null ? [] : [m]
    }),
  }
}

/** Medians, spreads and per-prompt figures of one target's runs (over several server sessions). */
export function buildResult(parts: ResultParts): BenchResult {
  const { runs: used, over } = medianRuns(parts.runs)
  const prompts = [...new Set(parts.runs.map((r) => r.prompt))]
  return {
    ...parts.target,
    runs: parts.runs,
    median: figuresOf(used),
    medianOver: over,
    tokensPerSecondSpread: spreadOf(used.map((r) => r.tokensPerSecond)),
    promptTokensPerSecondSpread: spreadOf(used.map((r) => r.promptTokensPerSecond)),
    prompts: prompts.map((p) =>
      promptSummary(
        p,
        parts.runs.filter((r) => r.prompt === p),
      ),
    ),
    disturbedRuns: parts.runs.filter((r) => r.disturbed).length,
    minFreeVramMiB: minOrNull([parts.minFreeVramMiB, ...parts.runs.map((r) => r.minFreeVramMiB)]),
    peakVramUsedMiB: maxOrNull([parts.peakVramUsedMiB, ...parts.runs.map((r) => r.peakVramUsedMiB)]),
    loadMs: parts.loadMs,
    previous: parts.previous ?? null,
  }
}

/** Each result against the first one. */
export function ratiosAgainstFirst(results: readonly BenchResult[]): BenchRatio[] {
  const base = results[0]
  if (!base) return []
  return results.map((r) => ({
    profileId: r.profileId,
    label: r.label,
    tokensPerSecond: ratio(r.median.tokensPerSecond, base.median.tokensPerSecond),
    promptTokensPerSecond: ratio(r.median.promptTokensPerSecond, base.median.promptTokensPerSecond),
    byPrompt: Object.fromEntries(
      r.prompts.map((p) => [
        p.prompt,
        ratio(p.median.tokensPerSecond, base.prompts.find((b) => b.prompt === p.prompt)?.median.tokensPerSecond ?? null),
      ]),
    ),
  }))
}
