import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SeriesHistory } from './series-history'

describe('SeriesHistory', () => {
  it('keeps the last `capacity` points in order, in the same arrays', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.option(fc.double({ noNaN: true }), { nil: null }), { maxLength: 200 }),
        (capacity, values) => {
          const h = new SeriesHistory(2, capacity)
          const x = h.x
          values.forEach((v, i) => h.add(1000 + i, [v, i]))
          const expected = values.map((v, i) => [1000 + i, v, i] as const).slice(-capacity)
          expect(h.length).toBe(expected.length)
          expect(h.x).toBe(x) // reused in place: uPlot gets the same arrays
          expect(h.data()).toEqual([expected.map((e) => e[0]), expected.map((e) => e[1]), expected.map((e) => e[2])])
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('a repeated or older time replaces the last point instead of adding one', () => {
    const h = new SeriesHistory(1, 10)
    h.add(5, [1])
    h.add(5, [2])
    h.add(4, [3])
    expect(h.data()).toEqual([[5], [3]])
  })

  it('missing values become gaps (null)', () => {
    const h = new SeriesHistory(3, 10)
    h.add(1, [1])
    expect(h.data()).toEqual([[1], [1], [null], [null]])
  })

  it('backfill puts older points in front of live ones, skips what is not older, and keeps the capacity', () => {
    const h = new SeriesHistory(1, 5)
    const x = h.x
    h.add(10, [100])
    h.add(11, [110])
    h.backfill([6, 7, 8, 8, 9, 10, 11, 12].map((t) => ({ timeSec: t, values: [t] })))
    expect(h.x).toBe(x)
    // Room for 3 more: the newest older points (7, 8, 9); 10 and later are live already.
    expect(h.data()).toEqual([
      [7, 8, 9, 10, 11],
      [7, 8, 9, 100, 110],
    ])
    h.add(12, [120])
    expect(h.data()).toEqual([
      [8, 9, 10, 11, 12],
      [8, 9, 100, 110, 120],
    ])
  })

  it('backfill into an empty history takes the points as they are', () => {
    const h = new SeriesHistory(2, 10)
    h.backfill([
      { timeSec: 1, values: [1, null] },
      { timeSec: 2, values: [2] },
    ])
    expect(h.data()).toEqual([
      [1, 2],
      [1, 2],
      [null, null],
    ])
  })
})
