/** Whether the NVIDIA GPU is powered down (D3), read without touching the device itself. */
export type GpuPowerKind = 'awake' | 'asleep' | 'unknown'

export interface GpuPowerState {
  readonly kind: GpuPowerKind
  /** What the platform said, for the log and "Why?" (e.g. "D3cold, runtime suspended"); null when nothing was read. */
  readonly detail: string | null
}

/**
 * The NVIDIA GPU's power state from the operating system's bookkeeping (Linux: the PCI device's sysfs attributes;
 * Windows: Plug and Play's DEVPKEY_Device_PowerData), never from the driver: an NVML or nvidia-smi query wakes a
 * sleeping laptop GPU (20–25 W measured by one user), this read does not. Cheap enough for every tick.
 */
export interface DevicePowerSource {
  read(): GpuPowerState
}

export const UNKNOWN_GPU_POWER: GpuPowerState = { kind: 'unknown', detail: null }

/** Several NVIDIA GPUs: asleep only when all are (a query would wake the awake one anyway, not the others). */
export function combineGpuPower(states: readonly GpuPowerState[]): GpuPowerState {
  if (states.length === 0) return UNKNOWN_GPU_POWER
  const detail = states.map((s) => s.detail ?? 'unknown').join('; ')
  if (states.every((s) => s.kind === 'asleep')) return { kind: 'asleep', detail }
  if (states.some((s) => s.kind === 'awake')) return { kind: 'awake', detail }
  return { kind: 'unknown', detail }
}
