import { loadKoffi, type Koffi } from '../koffi'
import { describePdhStatus, type PdhItem } from './pdh-parsing'

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

/**
 * One PDH query over wildcard counters ("\GPU Process Memory(*)\Dedicated Usage"), added by their English names so
 * that a localised Windows reads them too, and read in-process through pdh.dll (no PowerShell, no typeperf). Each
 * collect() re-expands the wildcards, so processes that started since are listed. A rate counter (utilisation)
 * has values from its second collect on: keep the query open between reads.
 */
export class PdhQuery {
  private closed = false
  /** Why the last collect() or items() failed; null after a good one. */
  lastProblem: string | null = null

  private constructor(
    private readonly koffi: Koffi,
    private readonly pdh: PdhBindings,
    private readonly query: unknown,
    private readonly counters: readonly unknown[],
    private readonly itemType: ReturnType<Koffi['struct']> = counterItemType(koffi),
  ) {}

  /** Opens the query with these counter paths, or returns why not (no koffi, no pdh.dll, a counter this Windows lacks). */
  static open(paths: readonly string[], loadKoffiFn: () => Koffi | string = loadKoffi): PdhQuery | string {
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
    for (const path of paths) {
      const counter: Out<unknown> = [null]
      const added = pdh.addCounter(query[0], path, 0, counter)
      if (added !== ERROR_SUCCESS || counter[0] === null) {
        pdh.closeQuery(query[0])
        return `the counter ${path} is not available: ${describePdhStatus(added)}`
      }
      counters.push(counter[0])
    }
    return new PdhQuery(koffi, pdh, query[0], counters)
  }

  /** Takes one sample of every counter; false (with the reason in `lastProblem`) when PDH refuses. */
  collect(): boolean {
    if (this.closed) return false
    const collected = this.pdh.collect(this.query)
    if (collected === ERROR_SUCCESS) return true
    this.lastProblem = `PdhCollectQueryData failed: ${describePdhStatus(collected)}`
    return false
  }

  /** The instances of the counter added `index`-th at the last collect(); null (with the reason) when PDH refuses. */
  items(index: number): PdhItem[] | null {
    const counter = this.counters[index]
    if (this.closed || counter === undefined) return null
    const size: [number] = [0]
    const count: [number] = [0]
    const first = this.pdh.getArray(counter, PDH_FMT_LARGE | PDH_FMT_NOCAP100, size, count, null) >>> 0
    if (first === ERROR_SUCCESS) return [] // no instances (no process uses the GPU)
    if (first !== PDH_MORE_DATA || size[0] <= 0) {
      this.lastProblem = `PdhGetFormattedCounterArrayW failed: ${describePdhStatus(first)}`
      return null
    }
    // PdhGetFormattedCounterArrayW's second call fills the items (the names point into the same buffer).
    const buffer = this.koffi.alloc('uint8_t', size[0])
    try {
      const status = this.pdh.getArray(counter, PDH_FMT_LARGE | PDH_FMT_NOCAP100, size, count, buffer) >>> 0
      if (status !== ERROR_SUCCESS) {
        this.lastProblem = `PdhGetFormattedCounterArrayW failed: ${describePdhStatus(status)}`
        return null
      }
      const raw = this.koffi.decode(buffer, this.itemType, count[0]) as { szName: string; CStatus: number; largeValue: bigint | number }[]
      this.lastProblem = null
      return raw.map((r) => ({ name: r.szName, status: r.CStatus, value: r.largeValue }))
    } finally {
      this.koffi.free(buffer)
    }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.pdh.closeQuery(this.query)
  }
}
