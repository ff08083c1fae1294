/**
 * Pure decoding of what PDH returns for the GPU memory counters, apart from
 * the koffi binding (pdh-shared-memory.ts) so it is unit-tested anywhere.
 *
 * Instance names (Windows 10 1709+, WDDM 2.x):
 *   \GPU Process Memory(pid_1234_luid_0x00000000_0x0000C2A1_phys_0)\Shared Usage
 *   \GPU Adapter Memory(luid_0x00000000_0x0000C2A1_phys_0)\Shared Usage
 * Values are bytes. One process has an instance per adapter (and per physical
 * node of a linked adapter): its shared usage is their sum.
 */

export const PROCESS_SHARED_USAGE = '\\GPU Process Memory(*)\\Shared Usage'
export const ADAPTER_SHARED_USAGE = '\\GPU Adapter Memory(*)\\Shared Usage'

/** One item of PdhGetFormattedCounterArrayW (PDH_FMT_LARGE). */
export interface PdhItem {
  readonly name: string
  /** CStatus: 0 (PDH_CSTATUS_VALID_DATA) or 1 (PDH_CSTATUS_NEW_DATA) mean the value is usable. */
  readonly status: number
  readonly value: bigint | number
}

const MIB = 1024 * 1024

function usable(item: PdhItem): boolean {
  return item.status === 0 || item.status === 1
}

/** The pid in a "GPU Process Memory" instance name; null for any other name. */
export function pidOfInstance(name: string): number | null {
  const m = /^pid_(\d+)_luid_/i.exec(name)
  return m ? Number(m[1]) : null
}

/** Shared GPU memory of every process, in MiB, summed over its adapters. */
export function sharedUsageByPid(items: readonly PdhItem[]): Map<number, number> {
  const out = new Map<number, number>()
  for (const item of items) {
    const pid = pidOfInstance(item.name)
    if (pid === null || !usable(item)) continue
    out.set(pid, (out.get(pid) ?? 0) + Number(item.value) / MIB)
  }
  return out
}

/** Shared GPU memory in use per adapter (LUID + physical node), in MiB. */
export function sharedUsageByAdapter(items: readonly PdhItem[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const item of items) {
    if (!/^luid_0x[0-9a-f]+_0x[0-9a-f]+_phys_\d+$/i.test(item.name) || !usable(item)) continue
    out.set(item.name.toLowerCase(), Number(item.value) / MIB)
  }
  return out
}

const PDH_ERRORS: Record<number, string> = {
  0xc0000bb8:
    'PDH_CSTATUS_NO_OBJECT: this Windows has no GPU performance counters (Windows 10 1709 or later with a WDDM 2 driver has them)',
  0xc0000bb9: 'PDH_CSTATUS_NO_COUNTER: this Windows has no GPU memory counters (Windows 10 1709 or later with a WDDM 2 driver has them)',
  0xc0000bc0: 'PDH_INVALID_PATH',
  0xc0000bc6: 'PDH_NO_DATA',
  0x800007d2: 'PDH_MORE_DATA',
}

/** A PDH status code in words: "PDH_CSTATUS_NO_COUNTER (0xC0000BB9): …". */
export function describePdhStatus(code: number): string {
  const unsigned = code >>> 0
  const hex = `0x${unsigned.toString(16).toUpperCase().padStart(8, '0')}`
  const words = PDH_ERRORS[unsigned]
  return words
    ? `${words.split(':')[0]} (${hex})${words.includes(':') ? `:${words.slice(words.indexOf(':') + 1)}` : ''}`
    : `PDH error ${hex}`
}
