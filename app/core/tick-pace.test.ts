import { describe, expect, it } from 'vitest'
import { followsGpuStream, gpuIntervalMs, IDLE_GPU_BACKSTOP_MS, IDLE_NO_GPU_TICK_MS, IDLE_TICK_MS, tickDelayMs } from './tick-pace'

describe('the core tick pace', () => {
  const idle = { baseMs: 1000, fixed: false, watched: false, active: false, gpuRead: true, gpuStream: false }

  it('slows to the idle pace only while nobody watches and no request runs', () => {
    expect(tickDelayMs(idle)).toBe(IDLE_TICK_MS)
    expect(tickDelayMs({ ...idle, active: true })).toBe(1000)
    expect(tickDelayMs({ ...idle, watched: true })).toBe(1000)
    expect(tickDelayMs({ ...idle, fixed: true })).toBe(1000)
  })

  it('without GPU figures, ticks once a minute while idle and unwatched, and at the usual pace otherwise', () => {
    const noGpu = { ...idle, gpuRead: false }
    expect(tickDelayMs(noGpu)).toBe(IDLE_NO_GPU_TICK_MS)
    expect(IDLE_NO_GPU_TICK_MS).toBe(60_000)
    expect(tickDelayMs({ ...noGpu, active: true })).toBe(1000)
    expect(tickDelayMs({ ...noGpu, watched: true })).toBe(1000)
    expect(tickDelayMs({ ...noGpu, fixed: true })).toBe(1000)
  })

  it("idle and unwatched with nvidia-smi's stream, ticks on its lines and keeps the timer only as a backstop", () => {
    const stream = { ...idle, gpuStream: true }
    expect(followsGpuStream(stream)).toBe(true)
    expect(tickDelayMs(stream)).toBe(IDLE_GPU_BACKSTOP_MS)
    // The backstop never beats the stream's next line.
    expect(IDLE_GPU_BACKSTOP_MS).toBeGreaterThan(gpuIntervalMs(stream))
    for (const busy of [{ active: true }, { watched: true }, { fixed: true }]) {
      expect(followsGpuStream({ ...stream, ...busy })).toBe(false)
      expect(tickDelayMs({ ...stream, ...busy })).toBe(1000)
    }
  })

  it('never ticks faster than the setting asks, and keeps a slower setting while idle', () => {
    expect(tickDelayMs({ ...idle, baseMs: 5000 })).toBe(5000)
    expect(tickDelayMs({ ...idle, baseMs: 250, active: true })).toBe(250)
  })

  it("nvidia-smi's period follows what is watched, not each request (a new period is a new process)", () => {
    expect(gpuIntervalMs(idle)).toBe(IDLE_TICK_MS)
    expect(gpuIntervalMs({ ...idle, watched: true })).toBe(1000)
    expect(gpuIntervalMs({ ...idle, fixed: true, baseMs: 500 })).toBe(500)
    // Unwatched, the low-VRAM warning (3 low samples) must still come within 15 s of the VRAM running low.
    expect(3 * IDLE_TICK_MS).toBeLessThanOrEqual(15_000)
  })
})
