import { describe, expect, it } from 'vitest'
import { powerText } from './power-text'

describe('powerText', () => {
  it.each([
    [{ source: 'battery', batteryPercent: 79, charging: false, saver: null }, 'Battery, 79%'],
    [{ source: 'battery', batteryPercent: 18, charging: false, saver: true }, 'Battery, 18%, battery saver on'],
    [{ source: 'ac', batteryPercent: 80, charging: true, saver: false }, 'AC, battery 80% charging'],
    [{ source: 'ac', batteryPercent: null, charging: null, saver: null }, 'AC'],
    [{ source: 'unknown', batteryPercent: null, charging: null, saver: null }, null],
    [null, null],
  ] as const)('%j → %s', (power, text) => {
    expect(powerText(power)).toBe(text)
  })
})
