import { BACKEND_CHOICES, type BackendChoice, type EngineBackend } from '../contract/engines'

export { BACKEND_CHOICES, backendLabel, ENGINE_BACKENDS, type BackendChoice, type EngineBackend } from '../contract/engines'

export function isBackendChoice(text: string): text is BackendChoice {
  return (BACKEND_CHOICES as readonly string[]).includes(text)
}

/**
 * `auto`: the NVIDIA driver's CUDA version (nvidia-smi's "CUDA Version", NVML's
 * cudaDriverVersion) decides: 13.x or newer runs the CUDA 13 build, 12.x the
 * CUDA 12 one (a build needs a driver at least as new as its major version);
 * no NVIDIA driver (or an older one): Vulkan on Windows, the CPU build elsewhere.
 */
export function chooseBackend(choice: BackendChoice, driverCudaVersion: string | null, platform: NodeJS.Platform): EngineBackend {
  if (choice !== 'auto') return choice
  const major = driverCudaVersion === null ? null : Number.parseInt(driverCudaVersion, 10)
  if (major !== null && major >= 13) return 'cuda-13'
  if (major !== null && major >= 12) return 'cuda-12'
  return platform === 'win32' ? 'vulkan' : 'cpu'
}
