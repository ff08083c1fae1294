import { loadKoffi, type Koffi } from '../koffi'
import { ADAPTER_SHARED_USAGE, PROCESS_SHARED_USAGE, sharedUsageByAdapter, sharedUsageByPid } from './pdh-parsing'
import { PdhQuery } from './pdh-query'

export { counterItemType } from './pdh-query'

export interface SharedGpuSample {
  /** Shared (system) GPU memory per process, MiB. */
  readonly byPid: ReadonlyMap<number, number>
  /** Shared GPU memory in use per adapter, MiB. */
  readonly byAdapter: ReadonlyMap<string, number>
}

/**
 * Windows: shared GPU memory (what the driver spills into system RAM) from the
 * GPU Process Memory and GPU Adapter Memory performance counters (one PdhQuery).
 * open() returns the reason instead when there is no pdh.dll or no such counters
 * (Wine, Windows before 10 1709, no WDDM 2 driver). Checked by hand: docs/windows-manual-checklist.md.
 */
export class PdhSharedGpuMemory {
  private constructor(private readonly query: PdhQuery) {}

  /** Why the last sample() returned null; null after a good one. */
  get lastProblem(): string | null {
    return this.query.lastProblem
  }

  static open(loadKoffiFn: () => Koffi | string = loadKoffi): PdhSharedGpuMemory | string {
    const query = PdhQuery.open([PROCESS_SHARED_USAGE, ADAPTER_SHARED_USAGE], loadKoffiFn)
    return typeof query === 'string' ? query : new PdhSharedGpuMemory(query)
  }

  /** One reading of both counters; null (with the reason in `lastProblem`) when PDH refuses. */
  sample(): SharedGpuSample | null {
    if (!this.query.collect()) return null
    const processes = this.query.items(0)
    const adapters = processes ? this.query.items(1) : null
    if (!processes || !adapters) return null
    return { byPid: sharedUsageByPid(processes), byAdapter: sharedUsageByAdapter(adapters) }
  }

  close(): void {
    this.query.close()
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
