import type { BenchReport } from '../../../app/contract/bench'

/** One row of the Bench view's table: a profile on one prompt of the fixed set. */
export interface BenchTableRow {
  readonly key: string
  readonly profileId: string
  readonly label: string
  readonly prompt: string
  /** Medians as the report has them (the server's own timings). */
  readonly tokensPerSecond: number | null
  readonly promptTokensPerSecond: number | null
  readonly draftAcceptance: number | null
  /** The GPU's energy per 1,000 generated tokens; null where none was measured (no GPU energy source, or an older report). */
  readonly joulesPer1000Tokens: number | null
  /** Against the first profile on the same prompt; null on the first profile's rows or without figures. */
  readonly tokensPerSecondRatio: number | null
  readonly promptTokensPerSecondRatio: number | null
  readonly runs: number
  readonly disturbedRuns: number
  readonly disturbedReasons: readonly string[]
}

const ratio = (value: number | null, base: number | null): number | null =>
  value === null || base === null || base === 0 ? null : value / base

/** Profile × prompt rows, in the report's order (the seed's engine × model × KV cache table). */
export function benchTableRows(report: BenchReport): BenchTableRow[] {
  const base = report.results[0]
  const rows: BenchTableRow[] = []
  report.results.forEach((r, i) => {
    for (const p of r.prompts) {
      const baseMedian = base?.prompts.find((b) => b.prompt === p.prompt)?.median ?? null
      const runs = r.runs.filter((run) => run.prompt === p.prompt)
      const disturbed = runs.filter((run) => run.disturbed)
      rows.push({
        key: `${i}-${r.profileId}-${p.prompt}`,
        profileId: r.profileId,
        label: r.label,
        prompt: p.prompt,
        tokensPerSecond: p.median.tokensPerSecond,
        promptTokensPerSecond: p.median.promptTokensPerSecond,
        draftAcceptance: p.median.draftAcceptance,
        joulesPer1000Tokens: p.median.joulesPer1000Tokens ?? null,
        tokensPerSecondRatio: i === 0 ? null : ratio(p.median.tokensPerSecond, baseMedian?.tokensPerSecond ?? null),
        promptTokensPerSecondRatio: i === 0 ? null : ratio(p.median.promptTokensPerSecond, baseMedian?.promptTokensPerSecond ?? null),
        runs: runs.length,
        disturbedRuns: disturbed.length,
        disturbedReasons: [...new Set(disturbed.flatMap((run) => run.disturbedReasons))],
      })
    }
  })
  return rows
}

/** Bar widths (0–100 %) of the generation rates, against the fastest row. */
export function barWidths(rows: readonly BenchTableRow[]): number[] {
  const max = Math.max(0, ...rows.map((r) => r.tokensPerSecond ?? 0))
  return rows.map((r) => (max > 0 && r.tokensPerSecond !== null ? (r.tokensPerSecond / max) * 100 : 0))
}
