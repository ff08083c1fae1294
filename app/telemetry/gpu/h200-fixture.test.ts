import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GpuDevice } from '../../contract/telemetry'
import { h200NvmlCaptures } from '../../../test/support/telemetry/paths'
import { parseSmiLine } from './smi-csv'
import type { SmiField } from './smi-fields'

const dir = h200NvmlCaptures
const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8')

describe('the real H200 capture taken through our own readers', () => {
  const probe = JSON.parse(read('probe.json')) as { ok: true; fields: SmiField[]; devices: GpuDevice[] }
  const nvml = (JSON.parse(read('nvml-sample.json')) as GpuDevice[])[0]!

  it('parses every line of our stream with the probed fields, and agrees with NVML', () => {
    const lines = read('stream-ours-lms250.csv')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
    expect(lines.length).toBeGreaterThanOrEqual(10)
    for (const line of lines) {
      const d = parseSmiLine(line, probe.fields)
      expect(d).not.toBeNull()
      // Same GPU, same moment (idle): the two backends fill the same sample.
      expect({ ...d, powerW: 0, memoryReservedMiB: 0 }).toEqual({ ...nvml, powerW: 0, memoryReservedMiB: 0 })
      expect(Math.abs(d!.powerW! - nvml.powerW!)).toBeLessThan(5)
      expect(Math.abs(d!.memoryReservedMiB! - nvml.memoryReservedMiB!)).toBeLessThanOrEqual(1)
    }
  })
})
