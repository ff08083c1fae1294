import type { DevicePowerSource } from '../../platform/device-power'
import type { GpuProcessSource, GpuProcessUse } from '../../platform/gpu-processes'

/** Image names of these pids from the process table (Toolhelp on Windows, /proc elsewhere); a pid it lacks is left out. */
export type ProcessNames = (pids: readonly number[]) => ReadonlyMap<number, string>

export interface GpuProcessReaderOptions {
  readonly source: GpuProcessSource
  /** The NVIDIA GPU's power state: nothing is read while it sleeps (null: no gate). */
  readonly power: DevicePowerSource | null
  readonly names: ProcessNames | null
  /** A reading this recent is reused (reads are on demand, never per tick). */
  readonly minIntervalMs?: number
  readonly now?: () => number
}

/** One reading of the GPU's processes: named, largest dedicated memory first. */
export interface GpuProcessReading {
  readonly processes: readonly GpuProcessUse[]
  readonly at: number
}

export const GPU_PROCESS_MIN_INTERVAL_MS = 5000

/** The reader's problem while the GPU sleeps (nothing is read then: nothing can hold a sleeping GPU). */
export const GPU_ASLEEP = 'the NVIDIA GPU is asleep'

/**
 * Which other programs hold the NVIDIA GPU, read only when asked (the low-VRAM rule about to raise, the game watch's
 * slow cadence) and at most once per `minIntervalMs`, never while the GPU sleeps (each read through NVML or
 * nvidia-smi would wake it; PDH is not known to be harmless either). Our own servers are left out by the caller's pids.
 */
export class GpuProcessReader {
  private last: GpuProcessReading | null = null
  private pending: Promise<GpuProcessReading | null> | null = null
  /** Reads that reached the source (tests and the bench count them). */
  reads = 0

  constructor(private readonly options: GpuProcessReaderOptions) {}

  /** Why the last read gave nothing (the source's words, or the GPU asleep); null after a good one. */
  problem: string | null = null

  /**
   * The last reading without waiting, minus `exclude`; starts a fresh read in the background when that one is older
   * than the interval (or none yet). Null until a reading exists. For synchronous callers (the live rules).
   */
  peek(exclude: readonly number[]): readonly GpuProcessUse[] | null {
    if (!this.fresh()) void this.read(exclude)
    return this.last ? others(this.last.processes, exclude) : null
  }

  /** A reading at most `minIntervalMs` old, minus `exclude`; null while the GPU sleeps or when the source refused. */
  async read(exclude: readonly number[]): Promise<GpuProcessReading | null> {
    if (!this.fresh()) this.pending ??= this.readNow().finally(() => (this.pending = null))
    const reading = this.pending ? await this.pending : this.last
    return reading ? { at: reading.at, processes: others(reading.processes, exclude) } : null
  }

  async close(): Promise<void> {
    await this.pending
    await this.options.source.close()
  }

  private now(): number {
    return (this.options.now ?? Date.now)()
  }

  private fresh(): boolean {
    return this.last !== null && this.now() - this.last.at < (this.options.minIntervalMs ?? GPU_PROCESS_MIN_INTERVAL_MS)
  }

  private async readNow(): Promise<GpuProcessReading | null> {
    if (this.options.power?.read().kind === 'asleep') {
      // Nothing holds a sleeping GPU: what was read before is over.
      this.last = null
      this.problem = GPU_ASLEEP
      return null
    }
    this.reads++
    const listed = await this.options.source.read()
    if (!listed) {
      this.last = null
      this.problem = this.options.source.problem
      return null
    }
    const unnamed = listed.filter((p) => p.name === null).map((p) => p.pid)
    const names = unnamed.length > 0 && this.options.names ? this.options.names(unnamed) : new Map<number, string>()
    const processes = listed
      .map((p) => (p.name === null ? { ...p, name: names.get(p.pid) ?? null } : p))
      .sort((a, b) => (b.dedicatedMiB ?? -1) - (a.dedicatedMiB ?? -1))
    this.problem = null
    this.last = { processes, at: this.now() }
    return this.last
  }
}

function others(processes: readonly GpuProcessUse[], exclude: readonly number[]): readonly GpuProcessUse[] {
  return exclude.length === 0 ? processes : processes.filter((p) => !exclude.includes(p.pid))
}
