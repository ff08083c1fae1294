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
