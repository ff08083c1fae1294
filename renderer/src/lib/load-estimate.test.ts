import { describe, expect, it } from 'vitest'
import { formatElapsed } from './format'
import { loadEstimate } from './load-estimate'

describe('loadEstimate', () => {
  it('without a previous load: the elapsed time only, no fraction', () => {
    expect(loadEstimate(12_000, null, formatElapsed)).toEqual({ fraction: null, text: '0:12', overdue: false })
  })
  it('against the usual time: the fraction and "of about"', () => {
    expect(loadEstimate(10_000, 40_000, formatElapsed)).toEqual({ fraction: 0.25, text: '0:10 of about 0:40', overdue: false })
  })
  it('never shows done before ready, and says so when a load takes much longer than usual', () => {
    expect(loadEstimate(45_000, 40_000, formatElapsed)).toMatchObject({ fraction: 0.99, overdue: false })
    expect(loadEstimate(60_000, 40_000, formatElapsed)).toEqual({ fraction: 0.99, text: '1:00, longer than the usual 0:40', overdue: true })
  })
})
