/** Which way the GPU is read: NVML in-process, one long-lived nvidia-smi child, or nothing. */
export type GpuBackendName = 'nvml' | 'nvidia-smi'

/** One NVIDIA GPU at one moment. Every figure is null where the GPU or driver does not say. */
export interface GpuDevice {
  readonly index: number
  readonly name: string | null
  readonly memoryTotalMiB: number | null
  readonly memoryUsedMiB: number | null
  readonly memoryFreeMiB: number | null
  /** Held by the driver; usable ≈ total − reserved. */
  readonly memoryReservedMiB: number | null
  readonly temperatureC: number | null
  readonly utilizationPct: number | null
  readonly powerW: number | null
  readonly powerLimitW: number | null
  /**
   * NVML's total-energy counter in mJ (since the driver loaded; Volta and newer): the difference over a request is its
   * GPU energy. Absent or null where the GPU or reader does not count (then power samples are integrated).
   */
  readonly energyMJ?: number | null
  readonly smClockMHz: number | null
  /** "P0" (fastest) … "P15". */
  readonly pstate: string | null
  /** Active clock-event (throttle) reasons, e.g. "sw_power_cap", "hw_thermal_slowdown"; null when not reported. */
  readonly throttleReasons: readonly string[] | null
}

/**
 * The throttle reasons that slow a GPU down against its normal operation
 * (heat, a hardware slowdown or power brake). The power cap a busy GPU sits
 * at is not one: it is how it normally runs.
 */
export const SLOWDOWN_THROTTLE_REASONS: ReadonlySet<string> = new Set([
  'hw_slowdown',
  'sw_thermal_slowdown',
  'hw_thermal_slowdown',
  'hw_power_brake_slowdown',
])

export interface GpuSnapshot {
  readonly available: boolean
  /** Why there is no GPU data (no NVIDIA driver, no NVML, no nvidia-smi…), or why it is stale; null when all is well. */
  readonly reason: string | null
  readonly backend: GpuBackendName | null
  /** True when the last reading is older than 3 intervals (the reader is being restarted). */
  readonly stale: boolean
  /**
   * True while the NVIDIA GPU sleeps (D3) and is therefore not read (a query would wake it): the devices then carry
   * only what is still true (name, total memory) from the last reading.
   */
  readonly asleep?: boolean
  /** Epoch ms of the reading; null before the first one. */
  readonly sampledAt: number | null
  readonly devices: readonly GpuDevice[]
}

export interface ServerProcessSnapshot {
  readonly pid: number
  /** Share of the whole machine (all cores = 100). */
  readonly cpuPct: number | null
  readonly rssMiB: number | null
}

/** A known CPU-heavy app (browser, chat, game…) that is running now. */
export interface HeavyAppSnapshot {
  readonly name: string
  readonly pids: readonly number[]
  /** Sum over its processes, share of the whole machine; null where the platform does not say cheaply. */
  readonly cpuPct: number | null
}

export interface TopProcessSnapshot {
  readonly name: string
  readonly pid: number
  readonly cpuPct: number
}

export interface CpuSnapshot {
  /** Whole machine, 0–100; null until two readings exist. */
  readonly systemPct: number | null
  readonly ramTotalMiB: number
  readonly ramFreeMiB: number
  /** llama-server's own figures; null when no server runs. */
  readonly server: ServerProcessSnapshot | null
  readonly heavyApps: readonly HeavyAppSnapshot[]
  /** The busiest processes other than llama-server, busiest first. */
  readonly topProcesses: readonly TopProcessSnapshot[]
}
