/** One point of a series history: its time (epoch seconds) and one value per series. */
export interface HistoryPoint {
  readonly timeSec: number
  readonly values: readonly (number | null)[]
}

/**
 * Fixed-capacity chart history: one x array (epoch seconds) and N y arrays,
 * oldest first, the shape uPlot's setData takes. Adding a point past capacity
 * drops the oldest, so memory is bounded (10 minutes at 1 Hz = 600 points)
 * and the arrays are reused in place: nothing grows with time.
 */
export class SeriesHistory {
  readonly x: number[] = []
  readonly ys: (number | null)[][]

  constructor(
    readonly seriesCount: number,
    readonly capacity: number,
  ) {
    this.ys = Array.from({ length: seriesCount }, () => [])
  }

  get length(): number {
    return this.x.length
  }

  /** Adds one point; a time not after the last one replaces the last point (a repeated push). */
  add(timeSec: number, values: readonly (number | null)[]): void {
    const last = this.x[this.x.length - 1]
    if (last !== undefined && timeSec <= last) {
      this.ys.forEach((y, i) => (y[y.length - 1] = values[i] ?? null))
      return
    }
    this.x.push(timeSec)
    this.ys.forEach((y, i) => y.push(values[i] ?? null))
    if (this.x.length > this.capacity) {
      this.x.shift()
      for (const y of this.ys) y.shift()
    }
  }

  /**
   * Puts points from before this history's first one in front of it (past
   * points fetched after live ones may have arrived), oldest first; a time not
   * before the first point, or repeated, is skipped. Capacity still holds: the
   * oldest are dropped.
   */
  backfill(points: readonly HistoryPoint[]): void {
    const first = this.x[0] ?? Infinity
    const older: HistoryPoint[] = []
    for (const p of points) if (p.timeSec < first && p.timeSec > (older.at(-1)?.timeSec ?? -Infinity)) older.push(p)
    const keep = older.slice(Math.max(0, older.length - (this.capacity - this.x.length)))
    if (keep.length === 0) return
    this.x.unshift(...keep.map((p) => p.timeSec))
    this.ys.forEach((y, i) => y.unshift(...keep.map((p) => p.values[i] ?? null)))
  }

  clear(): void {
    this.x.length = 0
    for (const y of this.ys) y.length = 0
  }

  /** The arrays as uPlot's AlignedData (the same arrays, not copies). */
  data(): [number[], ...(number | null)[][]] {
    return [this.x, ...this.ys]
  }
}
