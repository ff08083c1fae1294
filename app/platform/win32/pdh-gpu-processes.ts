import type { GpuProcessSource, GpuProcessUse } from '../gpu-processes'
import type { Koffi } from '../koffi'
import { loadKoffi } from '../koffi'
import {
  ADAPTER_DEDICATED_USAGE,
  ENGINE_UTILIZATION,
  PROCESS_DEDICATED_USAGE,
  dedicatedByAdapter,
  dedicatedByPid,
  engine3dByPid,
  pickNvidiaLuid,
} from './pdh-gpu-process-parsing'
import { PdhQuery } from './pdh-query'

export interface PdhGpuProcessesOptions {
  /** What NVML or nvidia-smi last reported as used on the NVIDIA GPU (MiB): it tells the NVIDIA adapter's LUID apart. */
  readonly nvidiaUsedMiB: () => number | null
  readonly loadKoffi?: () => Koffi | string
  /** Tests pass a fake query. */
  readonly open?: (paths: readonly string[]) => Pick<PdhQuery, 'collect' | 'items' | 'close' | 'lastProblem'> | string
}

/**
 * Windows: every process's dedicated memory and 3D-engine use on the NVIDIA adapter, from the GPU Process Memory,
 * GPU Engine and GPU Adapter Memory counters (one PDH query, opened at the first read and kept: the engine counter
 * is a rate, so it has values from the second read on). NVML cannot say this under WDDM. Names come from the
 * process table (gated-gpu-processes.ts). Checked by hand: docs/windows-manual-checklist.md.
 */
export class PdhGpuProcesses implements GpuProcessSource {
  private query: ReturnType<NonNullable<PdhGpuProcessesOptions['open']>> | null = null
  problem: string | null = null

  constructor(private readonly options: PdhGpuProcessesOptions) {}

  async read(): Promise<readonly GpuProcessUse[] | null> {
    const query = (this.query ??= (this.options.open ?? ((paths) => PdhQuery.open(paths, this.options.loadKoffi ?? loadKoffi)))([
      PROCESS_DEDICATED_USAGE,
      ENGINE_UTILIZATION,
      ADAPTER_DEDICATED_USAGE,
    ]))
    if (typeof query === 'string') return this.fail(query)
    if (!query.collect()) return this.fail(query.lastProblem ?? 'PDH collected nothing')
    const memory = query.items(0)
    const engines = query.items(1)
    const adapters = query.items(2)
    if (!memory || !adapters) return this.fail(query.lastProblem ?? 'PDH listed nothing')
    const luid = pickNvidiaLuid(dedicatedByAdapter(adapters), this.options.nvidiaUsedMiB())
    if (luid === null) return this.fail('the NVIDIA adapter could not be told apart among the GPU adapters PDH lists')
    const dedicated = dedicatedByPid(memory, luid)
    // The first read of a rate counter has no value yet (PDH_CSTATUS_INVALID_DATA): its use stays unknown.
    const engine3d = engines ? engine3dByPid(engines, luid) : new Map<number, number>()
    const rated = (engines ?? []).some((i) => i.status === 0 || i.status === 1)
    this.problem = null
    const pids = new Set([...dedicated.keys(), ...engine3d.keys()])
    return [...pids].map((pid) => ({
      pid,
      name: null,
      dedicatedMiB: dedicated.get(pid) ?? 0,
      engine3dPct: engine3d.get(pid) ?? (rated ? 0 : null),
    }))
  }

  async close(): Promise<void> {
    if (this.query && typeof this.query !== 'string') this.query.close()
    this.query = null
  }

  private fail(reason: string): null {
    this.problem = reason
    return null
  }
}
