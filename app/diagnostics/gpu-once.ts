import type { GpuSnapshot } from '../contract/telemetry'
import { openGpuReader, type GpuReaderOptions } from '../telemetry/gpu/gpu-reader'

/** nvidia-smi needs a moment for its first line; NVML answers at once. A sanity bound, not a measured figure. */
const FIRST_READING_TIMEOUT_MS = 5000

/**
 * One GPU reading where no telemetry runs (the CLI, or the app while nothing
 * polls): the reader `auto` picks (NVML, then nvidia-smi), closed afterwards.
 */
export async function readGpuOnce(options: Omit<GpuReaderOptions, 'intervalMs'> = {}): Promise<GpuSnapshot> {
  const reader = await openGpuReader('auto', { intervalMs: 500, ...options })
  try {
    const deadline = Date.now() + FIRST_READING_TIMEOUT_MS
    let reading = reader.read()
    while (!reading.available && reader.backend !== null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
      reading = reader.read()
    }
    return reading
  } finally {
    await reader.close()
  }
}
