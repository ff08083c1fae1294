import { loadKoffi, type Koffi } from '../koffi'
import {
  ADAPTER_SHARED_USAGE,
  PROCESS_SHARED_USAGE,
  describePdhStatus,
  sharedUsageByAdapter,
  sharedUsageByPid,
  type PdhItem,
} from './pdh-parsing'

const ERROR_SUCCESS = 0
const PDH_MORE_DATA = 0x800007d2
const PDH_FMT_LARGE = 0x00000400
const PDH_FMT_NOCAP100 = 0x00008000

type Out<T> = [T | null]

interface PdhBindings {
  openQuery: (source: string | null, user: number, query: Out<unknown>) => number
  addCounter: (query: unknown, path: string, user: number, counter: Out<unknown>) => number
  collect: (query: unknown) => number
  getArray: (counter: unknown, format: number, bufferSize: [number], itemCount: [number], items: unknown) => number
  closeQuery: (query: unknown) => number
}

/** PDH_FMT_COUNTERVALUE_ITEM_W with a PDH_FMT_LARGE value: { LPWSTR szName; { DWORD CStatus; LONGLONG largeValue } } = 24 bytes on x64. */
export function counterItemType(koffi: Koffi): ReturnType<Koffi['struct']> {
  return koffi.struct({ szName: 'const char16_t *', CStatus: 'uint32_t', largeValue: 'int64_t' })
}

function bind(koffi: Koffi): PdhBindings {
  const pdh = koffi.load('pdh.dll')
  return {
    openQuery: pdh.func(
      'uint32_t __stdcall PdhOpenQueryW(const char16_t *source, uintptr_t user, _Out_ void **query)',
    ) as PdhBindings['openQuery'],
    addCounter: pdh.func(
      'uint32_t __stdcall PdhAddEnglishCounterW(void *query, const char16_t *path, uintptr_t user, _Out_ void **counter)',
    ) as PdhBindings['addCounter'],
    collect: pdh.func('uint32_t __stdcall PdhCollectQueryData(void *query)') as PdhBindings['collect'],
    getArray: pdh.func(
      'uint32_t __stdcall PdhGetFormattedCounterArrayW(void *counter, uint32_t format, _Inout_ uint32_t *size, _Out_ uint32_t *count, ' +
        'void *items)',
    ) as PdhBindings['getArray'],
    closeQuery: pdh.func('uint32_t __stdcall PdhCloseQuery(void *query)') as PdhBindings['closeQuery'],
  }
}

export interface SharedGpuSample {
  /** Shared (system) GPU memory per process, MiB. */
  readonly byPid: ReadonlyMap<number, number>
  /** Shared GPU memory in use per adapter, MiB. */
  readonly byAdapter: ReadonlyMap<string, number>
}

/**
 * Windows: shared GPU memory (what the driver spills into system RAM) from the
 * GPU Process Memory and GPU Adapter Memory performance counters, read
 * in-process through pdh.dll (no PowerShell, no typeperf). open() returns the
 * reason instead when there is no pdh.dll or no such counters (Wine, Windows
 * before 10 1709, no WDDM 2 driver). Checked by hand: docs/windows-manual-checklist.md.
 */
export class PdhSharedGpuMemory {
  private closed = false
  /** Why the last sample() returned null; null after a good one. */
  lastProblem: string | null = null

  private constructor(
    private readonly koffi: Koffi,
    private readonly pdh: PdhBindings,
    private readonly query: unknown,
    private readonly processCounter: unknown,
    private readonly adapterCounter: unknown,
    private readonly itemType: ReturnType<Koffi['struct']> = counterItemType(koffi),
  ) {}

  static open(loadKoffiFn: () => Koffi | string = loadKoffi): PdhSharedGpuMemory | string {
    const koffi = loadKoffiFn()
    if (typeof koffi === 'string') return koffi
    let pdh: PdhBindings
    try {
      pdh = bind(koffi)
    } catch (err) {
      return `pdh.dll unavailable: ${err instanceof Error ? err.message : String(err)}`
    }
    const query: Out<unknown> = [null]
    const opened = pdh.openQuery(null, 0, query)
    if (opened !== ERROR_SUCCESS || query[0] === null) return `PdhOpenQueryW failed: ${describePdhStatus(opened)}`
    const counters: unknown[] = []
    for (const path of [PROCESS_SHARED_USAGE, ADAPTER_SHARED_USAGE]) {
      const counter: Out<unknown> = [null]
      const added = pdh.addCounter(query[0], path, 0, counter)
      if (added !== ERROR_SUCCESS || counter[0] === null) {
        pdh.closeQuery(query[0])
        return `the counter ${path} is not available: ${describePdhStatus(added)}`
      }
      counters.push(counter[0])
    }
    return new PdhSharedGpuMemory(koffi, pdh, query[0], counters[0], counters[1])
  }

  /** One reading of both counters; null (with the reason in `lastProblem`) when PDH refuses. */
  sample(): SharedGpuSample | null {
    if (this.closed) return null
    const collected = this.pdh.collect(this.query)
    if (collected !== ERROR_SUCCESS) {
      this.lastProblem = `PdhCollectQueryData failed: ${describePdhStatus(collected)}`
      return null
    }
    const processes = this.items(this.processCounter)
    const adapters = this.items(this.adapterCounter)
    if (!processes || !adapters) return null
    this.lastProblem = null
    return { byPid: sharedUsageByPid(processes), byAdapter: sharedUsageByAdapter(adapters) }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.pdh.closeQuery(this.query)
  }

  /** PdhGetFormattedCounterArrayW's two calls: the size, then the items (the names point into the same buffer). */
  private items(counter: unknown): PdhItem[] | null {
    const size: [number] = [0]
    const count: [number] = [0]
    const first = this.pdh.getArray(counter, PDH_FMT_LARGE | PDH_FMT_NOCAP100, size, count, null) >>> 0
    if (first === ERROR_SUCCESS) return [] // no instances (no process uses the GPU)
    if (first !== PDH_MORE_DATA || size[0] <= 0) {
      this.lastProblem = `PdhGetFormattedCounterArrayW failed: ${describePdhStatus(first)}`
      return null
    }
    const buffer = this.koffi.alloc('uint8_t', size[0])
    try {
      const status = this.pdh.getArray(counter, PDH_FMT_LARGE | PDH_FMT_NOCAP100, size, count, buffer) >>> 0
      if (status !== ERROR_SUCCESS) {
        this.lastProblem = `PdhGetFormattedCounterArrayW failed: ${describePdhStatus(status)}`
        return null
      }
      const raw = this.koffi.decode(buffer, this.itemType, count[0]) as { szName: string; CStatus: number; largeValue: bigint | number }[]
      return raw.map((r) => ({ name: r.szName, status: r.CStatus, value: r.largeValue }))
    } finally {
      this.koffi.free(buffer)
    }
  }
}

export type SharedGpuReport =
  { readonly available: true; readonly adapters: Readonly<Record<string, number>> } | { readonly available: false; readonly reason: string }

/** One reading of shared GPU memory per adapter (MiB), or why there is none: for `llama-tray gpu` on Windows. */
export function readSharedGpuReport(open: () => PdhSharedGpuMemory | string = () => PdhSharedGpuMemory.open()): SharedGpuReport {
  const pdh = open()
  if (typeof pdh === 'string') return { available: false, reason: pdh }
  try {
    const sample = pdh.sample()
    if (!sample) return { available: false, reason: pdh.lastProblem ?? 'no PDH data' }
    return { available: true, adapters: Object.fromEntries(sample.byAdapter) }
  } finally {
    pdh.close()
  }
}
