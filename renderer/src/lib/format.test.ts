import { describe, expect, it } from 'vitest'
import { baseName, formatAxisNumber, formatElapsed, formatEnergy, formatMiB, formatPercent, formatRate } from './format'

describe('format helpers', () => {
  it('rates, percentages and sizes, with a dash for unknown', () => {
    expect(formatRate(null)).toBe('–')
    expect(formatRate(Number.NaN)).toBe('–')
    expect(formatRate(38.94)).toBe('38.9')
    expect(formatRate(386.7)).toBe('387')
    expect(formatPercent(0.6842)).toBe('68%')
    expect(formatPercent(undefined)).toBe('–')
    expect(formatMiB(740)).toBe('740 MiB')
    expect(formatMiB(1536)).toBe('1.5 GiB')
  })

  it('elapsed time as a clock', () => {
    expect(formatElapsed(0)).toBe('0:00')
    expect(formatElapsed(75_400)).toBe('1:15')
    expect(formatElapsed(3_700_000)).toBe('1:01:40')
    expect(formatElapsed(-5)).toBe('0:00')
  })

  it('base names of POSIX and Windows paths', () => {
    expect(baseName('/models/qwen.gguf')).toBe('qwen.gguf')
    expect(baseName('C:\\models\\Qwen3.6-35B-A3B-Q4_K_M.gguf')).toBe('Qwen3.6-35B-A3B-Q4_K_M.gguf')
    expect(baseName('')).toBe('')
  })
})

describe('formatEnergy', () => {
  it('says J under an hour of a watt, Wh above', () => {
    expect(formatEnergy(4.25)).toBe('4.3 J')
    expect(formatEnergy(840.4)).toBe('840 J')
    expect(formatEnergy(5400)).toBe('1.5 Wh')
  })
})

describe('formatAxisNumber', () => {
  it('keeps labels short enough for the axis: thousands as k, millions as M', () => {
    expect([0, 12.34, 950, 1000, 1250, 25_000, 999_999, 3_400_000, 42_000_000].map(formatAxisNumber)).toEqual([
      '0',
      '12.3',
      '950',
      '1k',
      '1.3k',
      '25k',
      '1M',
      '3.4M',
      '42M',
    ])
  })
})
