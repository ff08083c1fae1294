import type { GpuProcessUse } from '../../platform/gpu-processes'
import { parseSmiNumber } from './smi-csv'

/**
 * nvmlProcessInfo_t as the _v3 running-process calls fill it (x64 and aarch64 alike):
 *   { unsigned int pid; unsigned long long usedGpuMemory; unsigned int gpuInstanceId; unsigned int computeInstanceId; }
 * = 24 bytes (4 bytes of padding after pid). usedGpuMemory is bytes, or NVML_VALUE_NOT_AVAILABLE (all ones) where the
 * driver will not say: always under WDDM on Windows.
 */
export const NVML_PROCESS_INFO_SIZE = 24
const NVML_VALUE_NOT_AVAILABLE = 0xffffffffffffffffn
const MIB = 1024 * 1024

export interface NvmlProcess {
  readonly pid: number
  /** Bytes in MiB; null for NVML's "not available". */
  readonly usedMiB: number | null
}

/** The `count` entries NVML wrote into `buffer` (a short buffer gives what fits). */
export function decodeNvmlProcessInfos(buffer: Uint8Array, count: number): NvmlProcess[] {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  const out: NvmlProcess[] = []
  for (let i = 0; i < count && (i + 1) * NVML_PROCESS_INFO_SIZE <= buffer.byteLength; i++) {
    const at = i * NVML_PROCESS_INFO_SIZE
    const used = view.getBigUint64(at + 8, true)
    out.push({ pid: view.getUint32(at, true), usedMiB: used === NVML_VALUE_NOT_AVAILABLE ? null : Number(used) / MIB })
  }
  return out
}

/**
 * One process in NVML's compute and graphics lists together: a process in both (a CUDA app drawing too) is one
 * entry, its memory the larger figure (NVML counts the same allocations in each list).
 */
export function mergeNvmlProcesses(lists: readonly (readonly NvmlProcess[])[]): NvmlProcess[] {
  const byPid = new Map<number, NvmlProcess>()
  for (const p of lists.flat()) {
    const known = byPid.get(p.pid)
    const usedMiB = known
      ? known.usedMiB === null
        ? p.usedMiB
        : p.usedMiB === null
          ? known.usedMiB
          : Math.max(known.usedMiB, p.usedMiB)
      : p.usedMiB
    byPid.set(p.pid, { pid: p.pid, usedMiB })
  }
  return [...byPid.values()]
}

/** The fields asked of nvidia-smi where NVML is missing: `--query-compute-apps=` + this, CSV without header or units. */
export const SMI_COMPUTE_APPS_QUERY = 'pid,process_name,used_memory'

/**
 * `nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader,nounits` lines: "4242, /usr/bin/python3, 5120".
 * The name is the full path (Windows: "C:\…\game.exe"): its last part is kept. "[N/A]" memory (WDDM) is null; a line
 * without a pid is skipped. A path may hold ", ": the pid is the first field and the memory the last.
 */
export function parseComputeApps(stdout: string): GpuProcessUse[] {
  const out: GpuProcessUse[] = []
  for (const line of stdout.split(/\r?\n/)) {
    const parts = line.split(', ')
    if (parts.length < 3) continue
    const pid = parseSmiNumber(parts[0] as string, 1, 0xffffffff)
    if (pid === null || !Number.isInteger(pid)) continue
    const path = parts.slice(1, -1).join(', ').trim()
    const name = path.split(/[\\/]/).pop()?.trim() ?? ''
    out.push({
      pid,
      name: name === '' || /^\[.*\]$/.test(name) ? null : name,
      dedicatedMiB: parseSmiNumber(parts[parts.length - 1] as string, 0, 16 * 1024 * 1024),
      engine3dPct: null,
    })
  }
  return out
}
