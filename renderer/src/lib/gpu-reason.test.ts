import { describe, expect, it } from 'vitest'
import { gpuReasonSummary } from './gpu-reason'

describe('gpuReasonSummary', () => {
  it.each([
    [
      'No NVIDIA GPU data: NVML unavailable: libnvidia-ml.so.1: cannot open shared object file; nvidia-smi not found (looked on PATH ' +
        'and in the NVIDIA driver folders)',
      'no NVIDIA driver found',
    ],
    ['No NVIDIA GPU data: NVML is not available on darwin', 'no NVIDIA driver found'],
    ['nvidia-smi lists no GPU', 'the NVIDIA driver sees no GPU'],
    ['GPU read failed: nvidia-smi timed out after 5000 ms', 'the NVIDIA driver did not answer'],
    ['GPU telemetry is off', 'GPU telemetry is off'],
    [
      'The NVIDIA GPU is asleep (D3cold, runtime suspended): it is not read, so that it stays asleep.',
      'the GPU is asleep (not read, so that it stays asleep)',
    ],
    ['something new', 'the GPU could not be read'],
    [null, 'the GPU could not be read'],
  ])('%s → %s', (raw, summary) => {
    expect(gpuReasonSummary(raw)).toBe(summary)
  })
})
