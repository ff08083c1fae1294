import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../../test/helpers/paths'
import { diagnoseExit } from './diagnose'

const logLines = (path: string): string[] => readFileSync(join(FIXTURES, path), 'utf8').split('\n')

describe('diagnoseExit on real llama-server logs', () => {
  it.each([
    ['llama-server/logs/err_missing_model.log', 'model-missing', /does-not-exist\.gguf/],
    ['llama-server/logs/err_corrupt_bad_magic.log', 'model-corrupt', /corrupt/],
    ['llama-server/logs/err_corrupt_truncated_4k.log', 'model-corrupt', /corrupt/],
    ['llama-server/logs/err_corrupt_truncated_half.log', 'model-corrupt', /corrupt/],
    ['llama-server/logs/err_no_mmap_flag.log', 'flag-removed', /--no-mmap/],
    ['llama-server/logs/err_unknown_flag.log', 'flag-unknown', /--definitely-not-a-flag/],
    ['llama-server/logs/err_port_in_use.log', 'port-in-use', /port 42099 on 127\.0\.0\.1/],
    ['llama-server-forks/ik/err_unknown_flag.stderr.txt', 'flag-unknown', /--this-flag-does-not-exist/],
    ['llama-server-forks/ik/err_legacy_draft_max.stderr.txt', 'flag-removed', /--draft-max/],
    ['llama-server-forks/ik/err_port_in_use.stderr.txt', 'port-in-use', /port 40047/],
    ['llama-server-forks/buun/err_port_in_use.stderr.txt', 'port-in-use', /port 35205/],
    ['llama-server-forks/buun/draft_md_only.stderr.txt', 'assertion', /ggml_can_repeat/],
  ])('%s → %s', (file, kind, reason) => {
    const d = diagnoseExit(1, null, logLines(file))
    expect(d.kind).toBe(kind)
    expect(d.reason).toMatch(reason)
    expect(d.deterministic).toBe(true)
    expect(d.hint).toBeTruthy()
  })

  it('names the replacement for --no-mmap', () => {
    expect(diagnoseExit(1, null, logLines('llama-server/logs/err_no_mmap_flag.log')).hint).toMatch(/--load-mode none/)
  })

  it.each([
    [
      [
        'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 5120.00 MiB on device 0: cudaMalloc failed: out of memory',
        'llama_model_load: error loading model: unable to allocate CUDA0 buffer',
      ],
      'out-of-memory-weights',
    ],
    [
      [
        'cudaMalloc failed: out of memory',
        'llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache',
      ],
      'out-of-memory-kv',
    ],
    [
      ['ggml_gallocr_reserve_n_impl: failed to allocate CUDA0 buffer of size 123', 'graph_reserve: failed to allocate compute buffers'],
      'out-of-memory-compute',
    ],
    [['CUDA error: out of memory', '  current device: 0, in function alloc at ggml-cuda.cu:400'], 'out-of-memory'],
    [["srv    load_model: failed to load draft model, '/m/draft.gguf'"], 'draft-rejected'],
    [['error while handling argument "-ctk": Unsupported cache type: turbo4'], 'flag-value'],
    [["error: unknown value for --flash-attn: '-ctk'"], 'flag-value'],
  ])('%j → %s', (lines, kind) => {
    expect(diagnoseExit(1, null, lines).kind).toBe(kind)
  })

  // Each backend's wording, from llama.cpp's format strings (llama-model.cpp's "unable to allocate %s buffer" with the
  // backend's buffer name; ggml-cuda.cu's cudaMalloc line, which ROCm builds print too; ggml-metal's buffer line).
  it.each([
    [
      'CUDA',
      [
        'E alloc_tensor_range: failed to allocate CUDA0 buffer of size 15866030592',
        'E llama_model_load: error loading model: unable to allocate CUDA0 buffer',
      ],
    ],
    ['ROCm', ['E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB on device 0: cudaMalloc failed: out of memory']],
    [
      'Vulkan',
      [
        'E alloc_tensor_range: failed to allocate Vulkan0 buffer of size 9437184000',
        'E llama_model_load: error loading model: unable to allocate Vulkan0 buffer',
      ],
    ],
    [
      'Metal',
      [
        'E ggml_metal_buffer_init: error: failed to allocate buffer, size =  9000.00 MiB',
        'E llama_model_load: error loading model: unable to allocate MTL0 buffer',
      ],
    ],
  ])('reads an out-of-memory load on %s as out of GPU memory for the weights (retried with a safer placement)', (_backend, lines) => {
    expect(diagnoseExit(1, null, [...lines, 'E srv  llama_server: exiting due to model loading error']).kind).toBe('out-of-memory-weights')
  })

  it('an unexplained exit is a crash worth retrying', () => {
    const d = diagnoseExit(null, 'SIGKILL', ['I srv  llama_server: listening on http://127.0.0.1:1'])
    expect(d).toMatchObject({ kind: 'crashed', deterministic: false })
    expect(d.reason).toMatch(/SIGKILL/)
  })

  it('property: never throws on any log lines, including every real log line', () => {
    const real = readdirSync(join(FIXTURES, 'llama-server', 'logs')).flatMap((f) => logLines(join('llama-server', 'logs', f)))
    expect(() => diagnoseExit(0, null, real)).not.toThrow()
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom(...real.slice(0, 500)))), fc.option(fc.integer()), (lines, code) => {
        const d = diagnoseExit(code, null, lines)
        expect(typeof d.reason).toBe('string')
      }),
      { numRuns: 2000 },
    )
  })
})
