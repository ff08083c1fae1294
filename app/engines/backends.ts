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
  return choice === 'auto' ? (backendOrder(driverCudaVersion, platform)[0] ?? 'cpu') : choice
}

/**
 * The builds `auto` tries, best first, when one fails the GPU check: CUDA 13,
 * CUDA 12 (each only with a driver new enough), Vulkan (on Windows, or after
 * a CUDA build elsewhere), and the CPU build last.
 */
export function backendOrder(driverCudaVersion: string | null, platform: NodeJS.Platform): EngineBackend[] {
  const major = driverCudaVersion === null ? null : Number.parseInt(driverCudaVersion, 10)
  const order: EngineBackend[] = []
  if (major !== null && major >= 13) order.push('cuda-13')
  if (major !== null && major >= 12) order.push('cuda-12')
  if (platform === 'win32' || order.length > 0) order.push('vulkan')
  order.push('cpu')
  return order
}
