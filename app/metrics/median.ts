/** The median of the finite values, or null when there are none. */
export function median(values: Iterable<number>): number | null {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b)
  const n = sorted.length
  if (n === 0) return null
  const mid = n >> 1
  return n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
