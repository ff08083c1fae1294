import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { h200Captures, smiCaptures } from '../../../test/support/telemetry/paths'
import { parseSmiLine, parseSmiNumber } from './smi-csv'
import { SMI_FIELDS, decodeThrottleMask, findRejectedField, type SmiField, type SmiTarget } from './smi-fields'

/** The field list a capture's `# nvidia-smi --query-gpu=…` header names, mapped to our targets. */
const TARGET_BY_QUERY: Record<string, SmiTarget> = {
  index: 'index',
  name: 'name',
  'memory.total': 'memoryTotalMiB',
  'memory.used': 'memoryUsedMiB',
  'memory.free': 'memoryFreeMiB',
  'memory.reserved': 'memoryReservedMiB',
  'temperature.gpu': 'temperatureC',
  'utilization.gpu': 'utilizationPct',
  'power.draw': 'powerW',
  'power.limit': 'powerLimitW',
  'clocks.sm': 'smClockMHz',
  pstate: 'pstate',
  'clocks_event_reasons.active': 'throttleMask',
}
function fieldsFromHeader(header: string): SmiField[] {
  const m = /--query-gpu=(\S+)/.exec(header)
  if (!m) throw new Error(`no --query-gpu in ${header}`)
  return (m[1] as string).split(',').map((q) => ({ query: q, target: TARGET_BY_QUERY[q] ?? 'ignore' }))
}

function capture(name: string): { fields: SmiField[]; lines: string[] } {
  const text = readFileSync(path.join(h200Captures, name), 'utf8').split('\n')
  const header = text.find((l) => l.startsWith('# nvidia-smi')) as string
  return { fields: fieldsFromHeader(header), lines: text.filter((l) => l.trim() !== '' && !l.startsWith('#')) }
}

describe('parseSmiLine on real H200 captures', () => {
  it('parses every line of the idle -lms 250 stream', () => {
    const { fields, lines } = capture('stream-lms250.txt')
    for (const line of lines) {
      const d = parseSmiLine(line, fields)
      expect(d).not.toBeNull()
      expect(d).toMatchObject({
        index: 0,
        memoryTotalMiB: 143771,
        memoryUsedMiB: 0,
        memoryFreeMiB: 143156,
        temperatureC: 35,
        smClockMHz: 345,
        pstate: 'P0',
        throttleReasons: ['gpu_idle'],
      })
    }
  })

  it('parses every line of the stream under load, with the figures moving', () => {
    const { fields, lines } = capture('stream-under-load.csv')
    const devices = lines.map((l) => parseSmiLine(l, fields))
    expect(devices.every((d) => d !== null)).toBe(true)
    const used = devices.map((d) => d!.memoryUsedMiB as number)
    expect(Math.max(...used)).toBeGreaterThan(90_000)
    expect(devices.every((d) => d!.memoryReservedMiB === 616)).toBe(true)
    expect(devices.some((d) => d!.throttleReasons?.length === 0)).toBe(true)
    expect(devices.some((d) => (d!.utilizationPct ?? 0) > 50)).toBe(true)
  })

  it('reads the one-shot query with units and with nounits the same way', () => {
    const [header, withUnits] = readFileSync(path.join(h200Captures, 'query-csv.txt'), 'utf8').split('\n') as [string, string]
    const bare = readFileSync(path.join(h200Captures, 'query-csv-noheader-nounits.txt'), 'utf8').trim()
    const fields = header
      .split(', ')
      .map((h) => h.replace(/ \[.*\]$/, ''))
      .map((q) => ({ query: q, target: TARGET_BY_QUERY[q === 'clocks.current.sm' ? 'clocks.sm' : q] ?? ('ignore' as SmiTarget) }))
    const a = parseSmiLine(withUnits as string, fields)
    const b = parseSmiLine(bare as string, fields)
    expect(a).not.toBeNull()
    expect(a!.memoryTotalMiB).toBe(143771)
    expect(a!.powerLimitW).toBe(700)
    expect(a!.name).toBe('NVIDIA H200')
    // Two samples a moment apart: only the power draw moved.
    expect(a!.powerW).toBe(124.2)
    expect(b!.powerW).toBe(122.61)
    expect({ ...a, powerW: 0 }).toEqual({ ...b, powerW: 0 })
  })

  it('turns the bracketed values of public laptop lines into null, not 0', () => {
    const lines = readFileSync(path.join(smiCaptures, 'public-laptop-excerpts', 'csv-lines-from-public-sources.txt'), 'utf8').split('\n')
    const gb10 = lines.find((l) => l.startsWith('[N/A]')) as string
    const d = parseSmiLine(gb10, [
      { query: 'memory.used', target: 'memoryUsedMiB' },
      { query: 'memory.total', target: 'memoryTotalMiB' },
      { query: 'utilization.memory', target: 'utilizationPct' },
    ])
    expect(d).toMatchObject({ memoryUsedMiB: null, memoryTotalMiB: null, utilizationPct: 0 })
    const a2000 = lines.find((l) => l.startsWith('1, NVIDIA RTX A2000')) as string
    const laptop = parseSmiLine(a2000, [
      { query: 'index', target: 'index' },
      { query: 'name', target: 'name' },
      { query: 'power.draw', target: 'powerW' },
      { query: 'clocks.sm', target: 'smClockMHz' },
      { query: 'clocks.mem', target: 'temperatureC' },
      { query: 'power.limit', target: 'powerLimitW' },
      { query: 'utilization.gpu', target: 'utilizationPct' },
      { query: 'pstate', target: 'pstate' },
      { query: 'clocks_event_reasons.active', target: 'throttleMask' },
    ])
    expect(laptop).toMatchObject({
      index: 1,
      name: 'NVIDIA RTX A2000 Laptop GPU',
      powerW: null,
      smClockMHz: 210,
      powerLimitW: null,
      utilizationPct: null,
      pstate: 'P8',
      throttleReasons: null,
    })
  })
})

describe("power.draw.average for the power where there is no NVML (the energy meter's integral runs on it)", () => {
  // The H200's one-shot query (query-csv.txt, driver 580) in our field list, with power.draw.average as that GPU's
  // `-q -x` capture (qx.xml) gave it: <average_power_draw>124.25 W</average_power_draw>.
  const [header, withUnits] = readFileSync(path.join(h200Captures, 'query-csv.txt'), 'utf8').split('\n') as [string, string]
  const averageInXml = /<average_power_draw>([\d.]+) W<\/average_power_draw>/.exec(readFileSync(path.join(h200Captures, 'qx.xml'), 'utf8'))
  const captured = Object.fromEntries(
    header.split(', ').map((h, i) => [h.replace(/ \[.*\]$/, ''), (withUnits.split(', ')[i] as string).replace(/ (MiB|W|%|MHz)$/, '')]),
  ) as Record<string, string>
  const ours = (average: string): string =>
    SMI_FIELDS.map((f) =>
      f.query === 'power.draw.average'
        ? average
        : (captured[f.query] ??
          captured[{ 'enforced.power.limit': 'power.limit', 'clocks.sm': 'clocks.current.sm' }[f.query] ?? ''] ??
          '[N/A]'),
    ).join(', ')

  it('is asked for, and its value is the power when the GPU gives it', () => {
    expect(SMI_FIELDS.map((f) => f.query)).toContain('power.draw.average')
    expect(averageInXml).not.toBeNull()
    const device = parseSmiLine(ours(averageInXml![1] as string), SMI_FIELDS)
    expect(device).toMatchObject({ name: 'NVIDIA H200', powerW: 124.25, powerLimitW: 700 })
  })

  it('falls back to power.draw where it reads [N/A] or [Not Supported] (laptops, GPUs before Ampere), and to null without either', () => {
    expect(parseSmiLine(ours('[N/A]'), SMI_FIELDS)?.powerW).toBe(124.2)
    expect(parseSmiLine(ours('[Not Supported]'), SMI_FIELDS)?.powerW).toBe(124.2)
    const line = ours('[N/A]').replace(', 124.20,', ', [N/A],')
    expect(parseSmiLine(line, SMI_FIELDS)?.powerW).toBeNull()
  })
})

describe('parseSmiLine edge cases', () => {
  const fields = SMI_FIELDS
  const good = '0, NVIDIA H200, 143771, 0, 143156, 616, 35, 0, 78.57, [N/A], 700.00, 345, P0, 0x0000000000000045'

  it('parses our own query and decodes the throttle mask', () => {
    expect(parseSmiLine(good, fields)).toEqual({
      index: 0,
      name: 'NVIDIA H200',
      memoryTotalMiB: 143771,
      memoryUsedMiB: 0,
      memoryFreeMiB: 143156,
      memoryReservedMiB: 616,
      temperatureC: 35,
      utilizationPct: 0,
      powerW: 78.57,
      powerLimitW: 700,
      smClockMHz: 345,
      pstate: 'P0',
      throttleReasons: ['gpu_idle', 'sw_power_cap', 'hw_thermal_slowdown'],
    })
  })

  it('skips a line with the wrong field count and a line without a valid index', () => {
    expect(parseSmiLine('0, NVIDIA H200, 143771', fields)).toBeNull()
    expect(parseSmiLine(`${good}, extra`, fields)).toBeNull()
    expect(parseSmiLine(good.replace(/^0/, '[N/A]'), fields)).toBeNull()
    expect(parseSmiLine(good.replace(/^0/, '1.5'), fields)).toBeNull()
    expect(parseSmiLine('', fields)).toBeNull()
  })

  it('drops out-of-range values instead of clamping them', () => {
    const d = parseSmiLine('0, X, 143771, 0, 143156, 616, 900, 250, -4, 9000, 700, 345, P99, 0xZZ', fields)
    expect(d).toMatchObject({ temperatureC: null, utilizationPct: null, powerW: null, pstate: null, throttleReasons: null })
  })

  it('never turns error markers into numbers', () => {
    for (const t of [
      '[N/A]',
      '[Not Supported]',
      '[Unknown Error]',
      'N/A',
      '',
      ' ',
      '[GPU requires reset]',
      'nan',
      'Infinity',
      '1e3',
      '0x10',
    ]) {
      expect(parseSmiNumber(t, -1e9, 1e9)).toBeNull()
    }
    expect(parseSmiNumber(' 42 ', 0, 100)).toBe(42)
    expect(parseSmiNumber('124.20 W', 0, 5000)).toBe(124.2)
  })

  it("reads the rejected field from nvidia-smi's message", () => {
    const text = readFileSync(path.join(h200Captures, 'query-bogus.txt'), 'utf8')
    expect(findRejectedField(text)).toBe('bogus.field')
    expect(findRejectedField('all fine')).toBeNull()
    expect(decodeThrottleMask(0x1ffn)).toHaveLength(9)
  })
})

describe('parseSmiLine properties (100,000+ generated lines)', () => {
  const MARKERS = ['[N/A]', '[Not Supported]', '[Unknown Error]', 'N/A', '']
  const token = fc.oneof(
    fc.constantFrom(...MARKERS),
    fc.integer({ min: -100_000, max: 20_000_000 }).map(String),
    fc.double({ noNaN: false }).map(String),
    fc.constantFrom('P0', 'P8', 'P16', '0x0000000000000001', '0xZZ', 'NVIDIA H200', 'Active', 'Not Active'),
    // A free-text token never holds the CSV separator or a line break (nvidia-smi's fields do not).
    fc.string({ maxLength: 12 }).filter((t) => !/[,\r\n]/.test(t)),
  )
  const line = fc.array(token, { minLength: 0, maxLength: 16 }).map((tokens) => ({ tokens, text: tokens.join(', ') }))

  it('never throws and never turns a marker into a number (20,000 × 5 structured lines)', () => {
    let lines = 0
    fc.assert(
      fc.property(fc.array(line, { minLength: 5, maxLength: 5 }), (batch) => {
        for (const { tokens, text } of batch) {
          lines++
          const d = parseSmiLine(text, SMI_FIELDS)
          if (d === null) continue
          expect(tokens).toHaveLength(SMI_FIELDS.length)
          SMI_FIELDS.forEach((f, i) => {
            const tok = (tokens[i] as string).trim()
            if (f.target === 'index' || f.target === 'throttleMask' || f.target === 'ignore') return
            // power.draw.average, where it is a number, stands for power.draw (checked on the captures above).
            if (f.target === 'powerAverageW' || f.target === 'powerW') return
            const value = d[f.target]
            if (MARKERS.includes(tok)) expect(value).toBeNull()
            if (typeof value === 'number') expect(Number(tok.replace(/ ?(MiB|W|%|MHz|C)$/, ''))).toBe(value)
          })
        }
      }),
      { numRuns: 20_000 },
    )
    expect(lines).toBeGreaterThanOrEqual(100_000)
  })

  it('never throws on arbitrary text (20,000 runs of 5 lines)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 200 }), { minLength: 5, maxLength: 5 }), (batch) => {
        for (const text of batch) parseSmiLine(text, SMI_FIELDS)
      }),
      { numRuns: 20_000 },
    )
  })
})
