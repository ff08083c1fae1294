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

  clear(): void {
    this.x.length = 0
    for (const y of this.ys) y.length = 0
  }

  /** The arrays as uPlot's AlignedData (the same arrays, not copies). */
  data(): [number[], ...(number | null)[][]] {
    return [this.x, ...this.ys]
  }
}
