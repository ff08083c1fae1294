import type { PdhItem } from './pdh-parsing'

/**
 * Pure decoding of the per-process GPU counters (WDDM 2.x), apart from the koffi binding so it is tested anywhere:
 *   \GPU Process Memory(pid_1234_luid_0x00000000_0x0001AF02_phys_0)\Dedicated Usage          bytes
 *   \GPU Engine(pid_1234_luid_0x00000000_0x0001AF02_phys_0_eng_0_engtype_3D)\Utilization Percentage   %
 *   \GPU Adapter Memory(luid_0x00000000_0x0001AF02_phys_0)\Dedicated Usage                   bytes
 * Every adapter (the integrated GPU, the NVIDIA one, a virtual display adapter) has its own LUID: only the NVIDIA
 * adapter's instances count (pickNvidiaLuid).
 */
export const PROCESS_DEDICATED_USAGE = '\\GPU Process Memory(*)\\Dedicated Usage'
export const ENGINE_UTILIZATION = '\\GPU Engine(*)\\Utilization Percentage'
export const ADAPTER_DEDICATED_USAGE = '\\GPU Adapter Memory(*)\\Dedicated Usage'

const MIB = 1024 * 1024

export interface GpuInstance {
  readonly pid: number
  /** "luid_0x00000000_0x0001af02": the adapter, lower case (the key pickNvidiaLuid returns). */
  readonly luid: string
  readonly phys: number
  /** The engine's index and type ("3D", "Copy", "VideoDecode", "Compute_0"…) on GPU Engine instances; null on memory ones. */
  readonly engine: number | null
  readonly engineType: string | null
}

const INSTANCE = /^pid_(\d+)_(luid_0x[0-9a-f]+_0x[0-9a-f]+)_phys_(\d+)(?:_eng_(\d+)_engtype_(.+))?$/i
const ADAPTER = /^(luid_0x[0-9a-f]+_0x[0-9a-f]+)_phys_\d+$/i

/** A per-process instance name taken apart; null for any other name (_Total, an adapter's). */
export function parseGpuInstance(name: string): GpuInstance | null {
  const m = INSTANCE.exec(name)
  if (!m) return null
  return {
    pid: Number(m[1]),
    luid: (m[2] as string).toLowerCase(),
    phys: Number(m[3]),
    engine: m[4] === undefined ? null : Number(m[4]),
    engineType: m[5] ?? null,
  }
}

/** The LUID of an adapter instance ("luid_0x…_0x…_phys_0"), lower case; null for any other name. */
export function adapterLuid(name: string): string | null {
  const m = ADAPTER.exec(name)
  return m ? (m[1] as string).toLowerCase() : null
}

const usable = (item: PdhItem): boolean => item.status === 0 || item.status === 1

/** Dedicated memory of every process on the adapter `luid`, in MiB (summed over its physical nodes). */
export function dedicatedByPid(items: readonly PdhItem[], luid: string): Map<number, number> {
  const out = new Map<number, number>()
  for (const item of items) {
    const i = parseGpuInstance(item.name)
    if (!i || i.luid !== luid || i.engine !== null || !usable(item)) continue
    out.set(i.pid, (out.get(i.pid) ?? 0) + Number(item.value) / MIB)
  }
  return out
}

/** 3D-engine utilisation of every process on the adapter `luid`, in % (its 3D engines summed, at most 100). */
export function engine3dByPid(items: readonly PdhItem[], luid: string): Map<number, number> {
  const out = new Map<number, number>()
  for (const item of items) {
    const i = parseGpuInstance(item.name)
    if (!i || i.luid !== luid || i.engineType?.toLowerCase() !== '3d' || !usable(item)) continue
    out.set(i.pid, Math.min(100, (out.get(i.pid) ?? 0) + Number(item.value)))
  }
  return out
}

/** Dedicated memory in use per adapter LUID, in MiB. */
export function dedicatedByAdapter(items: readonly PdhItem[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const item of items) {
    const luid = adapterLuid(item.name)
    if (luid === null || !usable(item)) continue
    out.set(luid, (out.get(luid) ?? 0) + Number(item.value) / MIB)
  }
  return out
}

/** An adapter's dedicated use within this much of NVML's `used` is the same memory (both move between two reads). */
const MATCH_TOLERANCE_MIB = 256
/** An integrated GPU's dedicated memory is a small carve-out: an adapter above this is a discrete one. */
const DISCRETE_MIN_MIB = 512

/**
 * Which adapter is the NVIDIA GPU. PDH names adapters by LUID only: the one whose dedicated use matches what NVML
 * or nvidia-smi reports as used (within 256 MiB, or 10 %, and nearer than any other) is it; without that figure, the
 * only adapter with more than 512 MiB of dedicated memory in use (an integrated GPU has a small carve-out). Null when
 * that does not settle it: better no name than the wrong adapter's processes.
 */
export function pickNvidiaLuid(adapters: ReadonlyMap<string, number>, nvidiaUsedMiB: number | null): string | null {
  if (nvidiaUsedMiB !== null) {
    const ranked = [...adapters].map(([luid, mib]) => ({ luid, diff: Math.abs(mib - nvidiaUsedMiB) })).sort((a, b) => a.diff - b.diff)
    const best = ranked[0]
    const tolerance = Math.max(MATCH_TOLERANCE_MIB, nvidiaUsedMiB * 0.1)
    const second = ranked[1]
    if (best && best.diff <= tolerance && (!second || second.diff > tolerance)) return best.luid
  }
  const discrete = [...adapters].filter(([, mib]) => mib > DISCRETE_MIN_MIB)
  return discrete.length === 1 ? (discrete[0] as [string, number])[0] : null
}
