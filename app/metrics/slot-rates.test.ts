import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SlotRates } from './slot-rates'
import type { SlotReading } from './slots-parser'

function slot(id: number, taskId: number | null, nDecoded: number | null, processing = true): SlotReading {
  return {
    id,
    taskId,
    processing,
    nDecoded,
    nRemain: null,
    nPromptTokens: null,
    nPromptTokensProcessed: null,
    nPromptTokensCache: null,
    nCtx: 4096,
  }
}

describe('SlotRates', () => {
  it('gives Δn_decoded/Δt between two polls of the same task', () => {
    const r = new SlotRates()
    expect(r.update([slot(0, 5, 10)], 1000)[0]?.tokensPerSecond).toBeNull()
    expect(r.update([slot(0, 5, 110)], 1500)[0]?.tokensPerSecond).toBe(200)
    expect(r.update([slot(0, 5, 160)], 2000)[0]?.tokensPerSecond).toBe(100)
  })

  it('resets the baseline when the task changes or n_decoded falls', () => {
    const r = new SlotRates()
    r.update([slot(0, 5, 10)], 0)
    expect(r.update([slot(0, 6, 50)], 500)[0]?.tokensPerSecond).toBeNull()
    expect(r.update([slot(0, 6, 100)], 1000)[0]?.tokensPerSecond).toBe(100)
    expect(r.update([slot(0, 6, 20)], 1500)[0]?.tokensPerSecond).toBeNull()
    expect(r.update([slot(0, 6, 70)], 2000)[0]?.tokensPerSecond).toBe(100)
  })

  it('does not count prompt time: a baseline taken before the first token is replaced', () => {
    const r = new SlotRates()
    r.update([slot(0, 1, 0)], 0)
    expect(r.update([slot(0, 1, 30)], 3000)[0]?.tokensPerSecond).toBeNull()
    expect(r.update([slot(0, 1, 80)], 3500)[0]?.tokensPerSecond).toBe(100)
  })

  it('forgets idle slots and rates busy slots independently', () => {
    const r = new SlotRates()
    r.update([slot(0, 1, 10), slot(1, 2, 10)], 0)
    const rated = r.update([slot(0, 1, 60), slot(1, 2, 110)], 1000)
    expect(rated.map((s) => s.tokensPerSecond)).toEqual([50, 100])
    r.update([slot(0, 1, 60, false), slot(1, 2, 210)], 2000)
    expect(r.update([slot(0, 1, 100), slot(1, 2, 260)], 2500).map((s) => s.tokensPerSecond)).toEqual([null, 100])
  })

  it('repeats the last rate for a reading that comes too soon, and measures the next one from the kept baseline', () => {
    const r = new SlotRates(150)
    r.update([slot(0, 1, 10)], 0)
    expect(r.update([slot(0, 1, 11)], 20)[0]?.tokensPerSecond).toBeNull()
    expect(r.update([slot(0, 1, 60)], 500)[0]?.tokensPerSecond).toBe(100)
    expect(r.update([slot(0, 1, 61)], 510)[0]?.tokensPerSecond).toBe(100)
    expect(r.update([slot(0, 1, 62)], 510)[0]?.tokensPerSecond).toBe(100)
    expect(r.update([slot(0, 1, 160)], 1000)[0]?.tokensPerSecond).toBe(200)
  })

  it('recovers any constant rate exactly from irregular polls (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.array(fc.integer({ min: 150, max: 3000 }), { minLength: 2, maxLength: 30 }),
        (rate, gaps) => {
          const r = new SlotRates()
          let t = 0
          const rates: (number | null)[] = []
          for (const gap of gaps) {
            t += gap
            rates.push(r.update([slot(0, 9, 1 + (rate * t) / 1000)], t)[0]!.tokensPerSecond)
          }
          expect(rates[0]).toBeNull()
          for (const v of rates.slice(1)) expect(v).toBeCloseTo(rate, 6)
        },
      ),
    )
  })
})
