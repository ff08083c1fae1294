import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { TelemetryService } from '../../../app/telemetry/telemetry-service'

/** The folder holding the fake nvidia-smi (see its header). */
export const fakeGpuDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-gpu')
export const fakeGpuExe = path.join(fakeGpuDir, 'nvidia-smi')

export interface FakeGpuConfig {
  readonly totalMiB: number
  readonly idleMiB: number
  readonly serverMiB: number
  readonly perGpuExpertLayerMiB: number
  readonly layers: number
  readonly draftMiB: number
  readonly temperatureC?: number
  readonly throttleMask?: string
}

/** The environment that puts the fake first on PATH with this configuration. */
export function fakeGpuEnv(config: FakeGpuConfig): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${fakeGpuDir}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_GPU: JSON.stringify(config) }
}

/** Telemetry reading the fake GPU through nvidia-smi (no NVML), sampling every `intervalMs`. */
export function fakeGpuTelemetry(config: FakeGpuConfig, intervalMs = 250): TelemetryService {
  return new TelemetryService({ gpuBackend: 'nvidia-smi', intervalMs, gpu: { smiExe: fakeGpuExe, env: fakeGpuEnv(config) } })
}

/** The free VRAM the fake reports with one server at --n-cpu-moe n (the fake's own rule, for expectations). */
export function fakeFreeMiB(config: FakeGpuConfig, nCpuMoe: number, draft: boolean): number {
  const gpuLayers = config.layers - Math.min(config.layers, nCpuMoe)
  return config.totalMiB - config.idleMiB - config.serverMiB - config.perGpuExpertLayerMiB * gpuLayers - (draft ? config.draftMiB : 0)
}
