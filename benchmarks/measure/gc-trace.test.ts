import { describe, expect, it } from 'vitest'
import { GcTrace, gcLineMs, REDUCER_QUIET_MS } from './gc-trace'

const SCAVENGE = '[8186:0x28df8d80]   129952 ms: Scavenge 14.9 (15.4) -> 14.3 (16.4) MB, 0.56 / 0.00 ms  (average mu = 0.960) task; '
const REDUCE =
  '[8186:0x28df8d80]    16245 ms: Mark-Compact (reduce) 20.5 (32.4) -> 13.7 (17.4) MB, 2.87 / 0.04 ms  (+ 7.4 ms in 24 steps since ' +
  'start of marking, biggest step 3.8 ms) finalize incremental marking via task; GC in old space requested'

describe("V8's GC lines of a measured CLI", () => {
  it('reads the main-thread ms of a scavenge and of a mark-compact with its incremental steps', () => {
    expect(gcLineMs(SCAVENGE)).toBeCloseTo(0.56)
    expect(gcLineMs(REDUCE)).toBeCloseTo(10.27)
    expect(gcLineMs('READY      pid 5104  http://127.0.0.1:18215  up 0s  VRAM free 36.2 GB')).toBeNull()
  })

  it('counts GCs inside the window only, and says whether the heap shrink came before it', () => {
    let now = 0
    const trace = new GcTrace(() => now)
    expect(trace.feed('llama-tray: Profile "idle" is ready.')).toBe(false)
    expect(trace.feed(REDUCE)).toBe(true)
    now = REDUCER_QUIET_MS
    trace.open()
    trace.feed(SCAVENGE)
    expect(trace.gcs).toBe(1)
    expect(trace.gcMs).toBeCloseTo(0.56)
    expect(trace.shrinkBefore).toBe(true)
    trace.feed(REDUCE)
    expect(trace.shrinkBefore).toBe(false)
  })
})
