import { readGpuInventory } from '../telemetry/gpu/inventory'

/**
 * What the NVIDIA driver reports, for `--backend auto`: its CUDA version ("13.0") and the first GPU's name; null without an NVIDIA driver.
 */
export interface DriverCuda {
  readonly cudaVersion: string | null
  /** The driver's own version ("580.95.05"): the GPU check's cache key (absent: unknown). */
  readonly driverVersion?: string | null
  readonly gpuName: string | null
}

/** From `nvidia-smi -q -x` (run once); null when there is no NVIDIA driver or it cannot be read. */
export async function readDriverCuda(): Promise<DriverCuda | null> {
  const inv = await readGpuInventory({ timeoutMs: 10_000 })
  if ('error' in inv || inv.gpus.length === 0) return null
  return { cudaVersion: inv.cudaVersion, driverVersion: inv.driverVersion, gpuName: inv.gpus[0]?.productName ?? null }
}
