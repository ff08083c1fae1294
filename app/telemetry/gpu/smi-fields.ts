import type { GpuDevice } from '../../contract/telemetry'

/**
 * The GpuDevice figure an nvidia-smi --query-gpu field fills. `powerAverageW` (power.draw.average) fills powerW where
 * the GPU gives it: an average is what the energy meter integrates best between two samples.
 */
export type SmiTarget = Exclude<keyof GpuDevice, 'throttleReasons' | 'energyMJ'> | 'throttleMask' | 'powerAverageW' | 'ignore'

export interface SmiField {
  /** The name passed to --query-gpu. */
  readonly query: string
  readonly target: SmiTarget
}

/** The query we ask for first: R535+ names (`clocks_event_reasons.*`). `index` must stay first. */
export const SMI_FIELDS: readonly SmiField[] = [
  { query: 'index', target: 'index' },
  { query: 'name', target: 'name' },
  { query: 'memory.total', target: 'memoryTotalMiB' },
  { query: 'memory.used', target: 'memoryUsedMiB' },
  { query: 'memory.free', target: 'memoryFreeMiB' },
  { query: 'memory.reserved', target: 'memoryReservedMiB' },
  { query: 'temperature.gpu', target: 'temperatureC' },
  { query: 'utilization.gpu', target: 'utilizationPct' },
  { query: 'power.draw', target: 'powerW' },
  // Ampere (but GA100) and newer; [N/A] elsewhere, refused (then dropped) by drivers before it.
  { query: 'power.draw.average', target: 'powerAverageW' },
  { query: 'enforced.power.limit', target: 'powerLimitW' },
  { query: 'clocks.sm', target: 'smClockMHz' },
  { query: 'pstate', target: 'pstate' },
  { query: 'clocks_event_reasons.active', target: 'throttleMask' },
]

/** Older drivers know some fields under another name; tried when the first name is refused. */
export const SMI_FIELD_ALIASES: Readonly<Record<string, string>> = {
  'clocks_event_reasons.active': 'clocks_throttle_reasons.active',
  'enforced.power.limit': 'power.limit',
  'clocks.sm': 'clocks.current.sm',
}

/** The message nvidia-smi prints (exit 2) for a field it does not know. */
export function findRejectedField(output: string): string | null {
  const m = /Field "([^"]+)" is not a valid field to query/.exec(output)
  return m ? (m[1] as string) : null
}

/** The --query-gpu argument for a field list. */
export function queryArgument(fields: readonly SmiField[]): string {
  return `--query-gpu=${fields.map((f) => f.query).join(',')}`
}

/**
 * Clock-event (throttle) reason bits, shared by NVML and nvidia-smi's hex mask
 * (nvml.h nvmlClocksEventReason*).
 */
export const THROTTLE_REASON_BITS: readonly (readonly [bit: number, name: string])[] = [
  [0x1, 'gpu_idle'],
  [0x2, 'applications_clocks_setting'],
  [0x4, 'sw_power_cap'],
  [0x8, 'hw_slowdown'],
  [0x10, 'sync_boost'],
  [0x20, 'sw_thermal_slowdown'],
  [0x40, 'hw_thermal_slowdown'],
  [0x80, 'hw_power_brake_slowdown'],
  [0x100, 'display_clock_setting'],
]

/** Names of the set bits; unknown bits are ignored. */
export function decodeThrottleMask(mask: bigint): string[] {
  const out: string[] = []
  for (const [bit, name] of THROTTLE_REASON_BITS) if ((mask & BigInt(bit)) !== 0n) out.push(name)
  return out
}
