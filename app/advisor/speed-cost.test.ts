import { describe, expect, it } from 'vitest'
import { slowdownEstimate, slowdownWords } from './speed-cost'

describe('the tok/s cost of more experts on the CPU, from measured rates', () => {
  // 1/rate = 0.02 + 0.001·n: 30 → 20 tok/s, 40 → 16.67 tok/s, 34 → 18.52 tok/s.
  const line = [30, 40].map((n) => ({ nCpuMoe: n, tokensPerSecond: 1 / (0.02 + 0.001 * n) }))

  it('interpolates the time per token over --n-cpu-moe between the measured settings', () => {
    expect(slowdownEstimate(line, 30, 34)).toBeCloseTo(20 - 1 / 0.054, 6)
    expect(slowdownWords(slowdownEstimate(line, 30, 34))).toBe('about 1.5 tok/s slower (estimate)')
  })

  it('extrapolates no further from the measured settings than their own spread', () => {
    expect(slowdownEstimate(line, 30, 50)).not.toBeNull()
    expect(slowdownEstimate(line, 30, 51)).toBeNull()
  })

  it('says nothing with one measured setting, a fit that is not slower with more on the CPU, or no change', () => {
    expect(slowdownEstimate([{ nCpuMoe: 30, tokensPerSecond: 20 }], 30, 34)).toBeNull()
    expect(
      slowdownEstimate(
        [
          { nCpuMoe: 30, tokensPerSecond: 20 },
          { nCpuMoe: 30, tokensPerSecond: 21 },
        ],
        30,
        34,
      ),
    ).toBeNull()
    const faster = [
      { nCpuMoe: 30, tokensPerSecond: 7 },
      { nCpuMoe: 34, tokensPerSecond: 18 },
    ]
    expect(slowdownEstimate(faster, 30, 34)).toBeNull()
    expect(slowdownEstimate(line, 34, 34)).toBeNull()
    expect(slowdownWords(null)).toBeNull()
    expect(slowdownWords(0.2)).toBeNull()
    expect(slowdownWords(12.4)).toBe('about 12 tok/s slower (estimate)')
  })
})
