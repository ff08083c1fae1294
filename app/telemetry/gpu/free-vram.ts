import type { GpuDevice } from '../../contract/telemetry'

/**
 * VRAM another model could use, in MiB: what is free now, plus what our own
 * llama-server holds (pass ownUsageMiB once it is known, e.g. from NVML's process
 * list or PDH on Windows), since restarting it gives that back. Null when unknown.
 */
export function availableVramMiB(device: GpuDevice, ownUsageMiB = 0): number | null {
  if (device.memoryFreeMiB === null) return null
  const total = device.memoryTotalMiB ?? Number.POSITIVE_INFINITY
  return Math.min(device.memoryFreeMiB + Math.max(0, ownUsageMiB), total - (device.memoryReservedMiB ?? 0))
}
