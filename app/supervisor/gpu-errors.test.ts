import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CUDA_H200, LLAMA_LOGS } from '../../test/helpers/paths'
import { findGpuError, placedALayerOnGpu } from './gpu-errors'

const OLD_DRIVER = 'CUDA driver version is insufficient for CUDA runtime version'
const lines = (path: string): string[] => readFileSync(path, 'utf8').split(/\r?\n/)

describe('GPU errors in llama-server logs (for the install GPU check)', () => {
  it('a healthy CUDA load on the H200 has no GPU error and offloaded layers', () => {
    const log = lines(join(CUDA_H200, 'm-ncmoe1.log'))
    expect(findGpuError(log)).toBeNull()
    expect(placedALayerOnGpu(log)).toBe(true)
  })

  it('a CUDA build at default verbosity logs nothing of its load on the H200 (the GPU check asks for -lv 4)', () => {
    const log = lines(join(CUDA_H200, 'engine-check-default-verbosity.log'))
    expect(log.some((l) => l.includes('verbosity = 3'))).toBe(true)
    expect(findGpuError(log)).toBeNull()
    expect(placedALayerOnGpu(log)).toBe(false)
  })

  it('the CPU test build has no GPU error and placed no layer on a GPU', () => {
    const log = lines(join(LLAMA_LOGS, 'target_default.log'))
    expect(findGpuError(log)).toBeNull()
    expect(placedALayerOnGpu(log)).toBe(false)
  })

  it('the recorded CUDA out-of-memory at load is a GPU error, with its line', () => {
    expect(findGpuError(lines(join(CUDA_H200, 'err_cuda_oom_at_load_h200.log')))).toEqual({
      reason: 'it could not allocate its CUDA0 buffer',
      line: '0.08.817.545 E alloc_tensor_range: failed to allocate CUDA0 buffer of size 15866030592',
    })
  })

  // llama.cpp's wording in ggml-cuda.cu and ggml-vulkan.cpp.
  it.each([
    [
      'ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected',
      'the CUDA runtime did not start: no CUDA-capable device is detected',
    ],
    [
      'CUDA error: no kernel image is available for execution on the device',
      'CUDA error: no kernel image is available for execution on the device',
    ],
    [`ggml_cuda_init: failed to initialize CUDA: ${OLD_DRIVER}`, `the CUDA runtime did not start: ${OLD_DRIVER}`],
    ['ggml_vulkan: No devices found.', 'the Vulkan backend failed: no Vulkan device found'],
    [
      "terminate called after throwing an instance of 'vk::DeviceLostError'  what():  vk::Queue::submit: ErrorDeviceLost",
      'Vulkan error ErrorDeviceLost',
    ],
  ])('%s', (line, reason) => {
    expect(findGpuError(['srv  llama_server: initializing ...', line])?.reason).toBe(reason)
  })
})
