import type { GpuDevice } from '../../contract/telemetry'
import { decodeThrottleMask, type SmiField, type SmiTarget } from './smi-fields'

type NumericTarget = Exclude<SmiTarget, 'name' | 'pstate' | 'throttleMask' | 'index' | 'ignore'>

/** Plausible ranges; a value outside is a glitch and is dropped (null), never clamped. */
const RANGES: Readonly<Record<NumericTarget, readonly [min: number, max: number]>> = {
  memoryTotalMiB: [0, 16 * 1024 * 1024],
  memoryUsedMiB: [0, 16 * 1024 * 1024],
  memoryFreeMiB: [0, 16 * 1024 * 1024],
  memoryReservedMiB: [0, 16 * 1024 * 1024],
  temperatureC: [-40, 150],
  utilizationPct: [0, 100],
  powerW: [0, 5000],
  powerAverageW: [0, 5000],
  powerLimitW: [0, 5000],
  smClockMHz: [0, 10_000],
}

const MAX_GPU_INDEX = 63
// A number, optionally followed by the unit nvidia-smi prints without `nounits`.
const NUMBER = /^(-?\d+(?:\.\d+)?)(?: ?(?:MiB|W|%|MHz|C))?$/
const PSTATE = /^P(?:[0-9]|1[0-5])$/
const HEX_MASK = /^0x[0-9a-fA-F]{1,16}$/

/** `[N/A]`, `[Not Supported]`, `[Unknown Error]`, `N/A`, empty: the GPU did not say. */
function isMissing(text: string): boolean {
  return text === '' || text === 'N/A' || text === 'Not Supported' || (text.startsWith('[') && text.endsWith(']'))
}

/** A number within [min, max], or null for anything else. Never turns text into 0. */
export function parseSmiNumber(text: string, min: number, max: number): number | null {
  const t = text.trim()
  if (isMissing(t)) return null
  const m = NUMBER.exec(t)
  if (!m) return null
  const n = Number(m[1])
  return Number.isFinite(n) && n >= min && n <= max ? n : null
}

function parseName(text: string): string | null {
  const t = text.trim()
  if (isMissing(t) || t.length > 128) return null
  return t
}

function parseMask(text: string): readonly string[] | null {
  const t = text.trim()
  return HEX_MASK.test(t) ? decodeThrottleMask(BigInt(t)) : null
}

type MutableDevice = { -readonly [K in keyof GpuDevice]: GpuDevice[K] }

function emptyDevice(index: number): MutableDevice {
  return {
    index,
    name: null,
    memoryTotalMiB: null,
    memoryUsedMiB: null,
    memoryFreeMiB: null,
    memoryReservedMiB: null,
    temperatureC: null,
    utilizationPct: null,
    powerW: null,
    powerLimitW: null,
    smClockMHz: null,
    pstate: null,
    throttleReasons: null,
  }
}

/**
 * One line of `nvidia-smi --query-gpu=<fields> --format=csv,noheader,nounits`
 * (units tolerated) into a GpuDevice. Returns null for a line that is not a
 * sample: wrong field count, or no valid `index` when the query has one.
 * Never throws.
 */
export function parseSmiLine(line: string, fields: readonly SmiField[]): GpuDevice | null {
  if (typeof line !== 'string' || line.length > 4096) return null
  const parts = line.split(',')
  if (parts.length !== fields.length || fields.length === 0) return null
  let index: number | null = 0
  let powerAverageW: number | null = null
  const device = emptyDevice(0)
  for (let i = 0; i < fields.length; i++) {
    const text = parts[i] as string
    const target = (fields[i] as SmiField).target
    switch (target) {
      case 'index': {
        index = parseSmiNumber(text, 0, MAX_GPU_INDEX)
        if (index === null || !Number.isInteger(index)) return null
        device.index = index
        break
      }
      case 'name':
        device.name = parseName(text)
        break
      case 'pstate': {
        const t = text.trim()
        device.pstate = PSTATE.test(t) ? t : null
        break
      }
      case 'ignore':
        break
      case 'throttleMask':
        device.throttleReasons = parseMask(text)
        break
      case 'powerAverageW':
        powerAverageW = parseSmiNumber(text, ...RANGES.powerAverageW)
        break
      default: {
        const [min, max] = RANGES[target]
        device[target] = parseSmiNumber(text, min, max)
      }
    }
  }
  if (powerAverageW !== null) device.powerW = powerAverageW
  return device
}
