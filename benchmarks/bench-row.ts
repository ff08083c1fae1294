/** One figure of a benchmark. A baseline is the same figure measured the reference way in the same run. */
export interface BenchRow {
  readonly group: string
  readonly name: string
  readonly value: number
  readonly unit: string
  readonly baseline?: number
  /** What the baseline is, e.g. "raw spawn + /health poll". */
  readonly baselineName?: string
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
