import { cpus, platform, release, totalmem } from 'node:os'
import type { BenchHardware } from '../contract/bench'
import type { GpuSnapshot } from '../contract/telemetry'

/** The machine, from the OS and the GPU telemetry: stored with every result. */
export function hardwareSnapshot(gpu: GpuSnapshot | null): BenchHardware {
  const cpuList = cpus()
  return {
    platform: platform(),
    release: release(),
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    cpuCores: cpuList.length,
    ramTotalMiB: Math.round(totalmem() / 1048576),
    gpus: gpu?.available ? gpu.devices.map((d) => ({ name: d.name, memoryTotalMiB: d.memoryTotalMiB })) : [],
    gpuSource: gpu?.backend ?? null,
  }
}

/** Same CPU and GPUs: figures are comparable. */
export function sameHardware(a: BenchHardware, b: BenchHardware): boolean {
  return (
    a.cpuModel === b.cpuModel &&
    a.cpuCores === b.cpuCores &&
    JSON.stringify(a.gpus.map((g) => g.name)) === JSON.stringify(b.gpus.map((g) => g.name))
  )
}
