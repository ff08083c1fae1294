import { describe, expect, it } from 'vitest'
import { filterLines, isFailureLine, loadPhase } from './log-lines'

describe('log lines', () => {
  it('highlights failures, not ordinary lines', () => {
    expect(isFailureLine('error: invalid argument: --no-mmap')).toBe(true)
    expect(
      isFailureLine('ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1234.00 MiB on device 0: cudaMalloc failed: out of memory'),
    ).toBe(true)
    expect(isFailureLine('/src/ggml.c:1234: GGML_ASSERT(n > 0) failed')).toBe(true)
    expect(isFailureLine('main: server is listening on http://127.0.0.1:8081')).toBe(false)
    expect(isFailureLine('slot print_timing: id  0 | task 3 | n_gen = 12, tg = 33.6 t/s')).toBe(false)
  })

  it('filters by every word, case-insensitively, and by failures', () => {
    const lines = ['load_tensors: CPU model buffer', 'error: model not found', 'slot update: task 3']
    expect(filterLines(lines, 'MODEL', false)).toEqual(['load_tensors: CPU model buffer', 'error: model not found'])
    expect(filterLines(lines, 'model buffer', false)).toEqual(['load_tensors: CPU model buffer'])
    expect(filterLines(lines, '', true)).toEqual(['error: model not found'])
  })

  it('names the load phase from the latest lines', () => {
    expect(loadPhase([])).toBeNull()
    expect(loadPhase(['build: 1234', 'llama_model_loader: loaded meta data'])).toBe('reading the model file')
    expect(loadPhase(['llama_model_loader: x', 'load_tensors: offloading 10 layers'])).toBe('loading tensors')
    expect(loadPhase(['load_tensors: x', 'llama_context: n_ctx = 4096'])).toBe('allocating the context (KV cache)')
  })
})
