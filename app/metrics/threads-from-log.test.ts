import { describe, expect, it } from 'vitest'
import { threadsFromLog } from './generation-tracker'

describe('threadsFromLog', () => {
  it('reads the threads llama-server generates with from either line it prints, the latest first', () => {
    expect(threadsFromLog(['0.00.394.704 I cmn          init: llama threadpool init, n_threads = 1'])).toBe(1)
    expect(
      threadsFromLog(['0.00.002.528 I cmn  common_param: system_info: n_threads = 2 (n_threads_batch = 2) / 2 | CPU : SSE3 = 1 |']),
    ).toBe(2)
    expect(threadsFromLog(['init: llama threadpool init, n_threads = 8', 'x', 'init: llama threadpool init, n_threads = 6'])).toBe(6)
    expect(threadsFromLog(['srv  llama_server: listening on http://127.0.0.1:8080'])).toBeNull()
  })
})
