import { diagnoseExit } from './diagnose'

/** A line of llama-server's log that says the GPU backend failed, and what it means in words. */
export interface GpuLogError {
  /** "the CUDA runtime found no GPU": for a sentence. */
  readonly reason: string
  /** The log line itself (for Details). */
  readonly line: string
  /**
   * The runtime saw no device at all: hidden (CUDA_VISIBLE_DEVICES=""), or the driver not up yet.
   * It says nothing about the build, so a check that met it is not remembered as the build's verdict.
   */
  readonly noDevice?: true
}

interface GpuRule {
  readonly pattern: RegExp
  readonly reason: (m: RegExpExecArray) => string
  readonly noDevice?: true
}

// llama.cpp's wording (ggml-cuda.cu, ggml-vulkan.cpp, llama-model.cpp); the first rule that matches a line wins.
const GPU_RULES: readonly GpuRule[] = [
  {
    pattern: /ggml_cuda_init: failed to initialize CUDA: (no CUDA-capable device is detected)/,
    reason: (m) => `the CUDA runtime did not start: ${m[1]}`,
    noDevice: true,
  },
  { pattern: /ggml_cuda_init: failed to initialize CUDA: (.+)/, reason: (m) => `the CUDA runtime did not start: ${m[1]?.trim()}` },
  { pattern: /no CUDA-capable device is detected/, reason: () => 'the CUDA runtime found no CUDA-capable device', noDevice: true },
  {
    pattern: /CUDA driver version is insufficient for CUDA runtime version/,
    reason: () => "the NVIDIA driver is older than this build's CUDA runtime",
  },
  { pattern: /CUDA error: (.+)/, reason: (m) => `CUDA error: ${m[1]?.trim()}` },
  {
    pattern: /ggml_vulkan: No devices found/i,
    reason: () => 'the Vulkan backend failed: no Vulkan device found',
    noDevice: true,
  },
  {
    pattern: /ggml_vulkan: .*(?:failed|error)(.*)/i,
    reason: (m) => `the Vulkan backend failed${m[1] ? `: ${m[1].trim()}` : ': no Vulkan device found'}`,
  },
  { pattern: /vk::\w+(?:::\w+)*: (Error\w+)/, reason: (m) => `Vulkan error ${m[1]}` },
  { pattern: /failed to allocate (\S+) buffer/, reason: (m) => `it could not allocate its ${m[1]} buffer` },
]

/** `-ngl 1` put a layer on the GPU: llama.cpp says "offloaded 1/3 layers to GPU" or "layer 1 assigned to device CUDA0". */
const OFFLOADED = /offloaded ([1-9]\d*)\/\d+ layers to GPU|layer +\d+ assigned to device (?!CPU)\w+/

/**
 * The first GPU error in llama-server's log: a CUDA or Vulkan runtime failure, a failed
 * allocation, or out of memory (the supervisor's own diagnosis rules, one place for those).
 */
export function findGpuError(lines: readonly string[]): GpuLogError | null {
  for (const line of lines) {
    for (const rule of GPU_RULES) {
      const m = rule.pattern.exec(line)
      if (m) return { reason: rule.reason(m), line: line.trim(), ...(rule.noDevice ? { noDevice: true as const } : {}) }
    }
  }
  const oom = diagnoseExit(0, null, lines)
  if (oom.kind.startsWith('out-of-memory')) {
    const line = lines.find((l) => /memory|allocate/i.test(l)) ?? ''
    return { reason: oom.reason, line: line.trim() }
  }
  return null
}

/**
 * Whether a layer went to a GPU. A GPU build that puts every layer on the CPU although it
 * was asked for one on the GPU (llama.cpp's "assigned to device CPU" for all of them) did
 * not find a usable GPU, even if nothing else in the log says so.
 */
export function placedALayerOnGpu(lines: readonly string[]): boolean {
  return lines.some((l) => OFFLOADED.test(l))
}
