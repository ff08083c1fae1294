import type { ServerStatus } from './server-state'

export type WarningLevel = 'info' | 'warn' | 'error'

/** A concrete change the UI can apply in one step. */
export interface WarningFix {
  readonly label: string
  /** Arguments to remove from the profile (flag names). */
  readonly removeArgs: readonly string[]
  /** Arguments to add, as argv tokens. */
  readonly addArgs: readonly string[]
}

export interface Warning {
  readonly id: string
  readonly level: WarningLevel
  readonly message: string
  readonly fix: WarningFix | null
}

/** Filled by the metrics issue; null until then. */
export interface GenerationSnapshot {
  readonly active: boolean
  readonly tokensPerSecond: number | null
}

/** Filled by the telemetry issue; null until then. */
export interface GpuSnapshot {
  readonly name: string | null
  readonly memoryTotalMiB: number | null
  readonly memoryUsedMiB: number | null
  readonly memoryFreeMiB: number | null
}

/** Filled by the telemetry issue; null until then. */
export interface CpuSnapshot {
  readonly systemPercent: number | null
}

/** Everything a view needs, pushed once per interval. */
export interface Snapshot {
  /** Epoch ms. */
  readonly time: number
  readonly server: ServerStatus
  readonly generation: GenerationSnapshot | null
  readonly gpu: GpuSnapshot | null
  readonly cpu: CpuSnapshot | null
  readonly warnings: readonly Warning[]
}
