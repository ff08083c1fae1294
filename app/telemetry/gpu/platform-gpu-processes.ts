import { platformDevicePower } from '../../platform/device-power-source'
import { PdhGpuProcesses } from '../../platform/win32/pdh-gpu-processes'
import { WindowsProcessSource } from '../../platform/win32/toolhelp-processes'
import { procCommNames } from '../cpu/linux-processes'
import { GpuProcessReader, type ProcessNames } from './gpu-process-reader'
import { NvmlGpuProcesses } from './nvml-gpu-processes'

/** Windows: the image names of one Toolhelp snapshot ("Cyberpunk2077.exe"), without opening any process. */
function toolhelpNames(): ProcessNames {
  const table = new WindowsProcessSource()
  return (pids) => {
    const wanted = new Set(pids)
    return new Map((table.entries() ?? []).filter((e) => wanted.has(e.pid)).map((e) => [e.pid, e.exeFile]))
  }
}

/**
 * This platform's reader of the GPU's processes: PDH on Windows (NVML's per-process memory is "N/A" under WDDM),
 * NVML or nvidia-smi elsewhere; gated by the GPU's power state. `nvidiaUsedMiB` (the telemetry's last figure) tells
 * the NVIDIA adapter apart among those PDH lists. Null on macOS.
 */
export function platformGpuProcessReader(
  nvidiaUsedMiB: () => number | null,
  platform: NodeJS.Platform = process.platform,
): GpuProcessReader | null {
  if (platform === 'win32')
    return new GpuProcessReader({
      source: new PdhGpuProcesses({ nvidiaUsedMiB }),
      power: platformDevicePower(platform),
      names: toolhelpNames(),
    })
  if (platform === 'linux')
    return new GpuProcessReader({
      source: new NvmlGpuProcesses(),
      power: platformDevicePower(platform),
      names: (pids) => procCommNames(pids),
    })
  return null
}
