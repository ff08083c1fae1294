import type { PdhItem } from './pdh-parsing'

/**
 * Pure decoding of the per-process GPU counters a game shows up in (WDDM 2.x):
 *   \GPU Engine(pid_1234_luid_0x00000000_0x0000C2A1_phys_0_eng_0_engtype_3D)\Utilization Percentage
 *   \GPU Process Memory(pid_1234_luid_0x00000000_0x0000C2A1_phys_0)\Dedicated Usage   (bytes)
 * matched to one adapter by its LUID (the NVIDIA GPU's, not the integrated one's).
 */
export const ENGINE_UTILIZATION = '\\GPU Engine(*)\\Utilization Percentage'
export const PROCESS_DEDICATED_USAGE = '\\GPU Process Memory(*)\\Dedicated Usage'

const MIB = 1024 * 1024

export interface GpuInstance {
  readonly pid: number
  /** "luid_0x00000000_0x0000c2a1", lower case. */
  readonly luid: string
  /** The engine type of a GPU Engine instance ("3D", "Copy", "VideoDecode"…); null for a process memory instance. */
  readonly engtype: string | null
}

/** The pid, adapter and engine type in a GPU Engine or GPU Process Memory instance name; null for another name. */
export function parseGpuInstance(name: string): GpuInstance | null {
  const m = /^pid_(\d+)_(luid_0x[0-9a-f]+_0x[0-9a-f]+)_phys_\d+(?:_eng_\d+_engtype_(.+))?$/i.exec(name)
  if (!m) return null
  return { pid: Number(m[1]), luid: (m[2] as string).toLowerCase(), engtype: m[3] ?? null }
}

/** One process's use of one GPU. */
export interface ProcessGpuUse {
  /** The busiest of its 3D engines, 0–100. */
  readonly threeDPct: number
  readonly dedicatedMiB: number
}

const usable = (item: PdhItem): boolean => item.status === 0 || item.status === 1

/** Every process's 3D load and dedicated memory on the adapter `luid` (counters of other adapters are left out). */
export function gpuUseByPid(engines: readonly PdhItem[], memory: readonly PdhItem[], luid: string): Map<number, ProcessGpuUse> {
  const want = luid.toLowerCase()
  const threeD = new Map<number, number>()
  for (const item of engines) {
    const inst = parseGpuInstance(item.name)
    if (!inst || inst.luid !== want || inst.engtype?.toLowerCase() !== '3d' || !usable(item)) continue
    // Counters have shipped bogus values at times: hold a percentage to 0–100.
    const pct = Math.max(0, Math.min(100, Number(item.value)))
    threeD.set(inst.pid, Math.max(threeD.get(inst.pid) ?? 0, pct))
  }
  const dedicated = new Map<number, number>()
  for (const item of memory) {
    const inst = parseGpuInstance(item.name)
    if (!inst || inst.luid !== want || inst.engtype !== null || !usable(item)) continue
    dedicated.set(inst.pid, (dedicated.get(inst.pid) ?? 0) + Math.max(0, Number(item.value)) / MIB)
  }
  const out = new Map<number, ProcessGpuUse>()
  for (const pid of new Set([...threeD.keys(), ...dedicated.keys()]))
    out.set(pid, { threeDPct: threeD.get(pid) ?? 0, dedicatedMiB: dedicated.get(pid) ?? 0 })
  return out
}
