import { describe, expect, it } from 'vitest'
import {
  CONFIRM_EVERY_MS,
  CONFIRM_MAX_MS,
  followsGpuStream,
  gpuIntervalMs,
  IDLE_GPU_BACKSTOP_MS,
  IDLE_NO_GPU_TICK_MS,
  IDLE_TICK_MS,
  tickDelayMs,
  WarningConfirmation,
} from './tick-pace'

describe('the core tick pace', () => {
  const idle = { baseMs: 1000, fixed: false, watched: false, active: false, gpuRead: true, gpuStream: false, confirming: false }

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

  it("while a warning is confirmed, ticks and nvidia-smi's stream keep the usual pace, then go back", () => {
    const stream = { ...idle, gpuStream: true, confirming: true }
    expect(tickDelayMs({ ...idle, confirming: true })).toBe(1000)
    expect(followsGpuStream(stream)).toBe(false)
    expect(tickDelayMs(stream)).toBe(1000)
    expect(gpuIntervalMs(stream)).toBe(1000)
    expect(gpuIntervalMs({ ...stream, confirming: false })).toBe(IDLE_TICK_MS)
  })
})

describe('hurrying for a pending warning', () => {
  it('hurries from the first pending sample until it is no longer pending', () => {
    const c = new WarningConfirmation()
    expect(c.update(false, 0)).toBe(false)
    expect(c.update(true, 5000)).toBe(true)
    expect(c.update(true, 6000)).toBe(true)
    expect(c.update(false, 7000)).toBe(false) // raised (or cleared): back to the idle pace
  })

  it('hurries at most CONFIRM_MAX_MS at a time and once a minute, so a reading that hovers costs little', () => {
    const c = new WarningConfirmation()
    expect(c.update(true, 0)).toBe(true)
    expect(c.update(true, CONFIRM_MAX_MS - 1)).toBe(true)
    expect(c.update(true, CONFIRM_MAX_MS)).toBe(false)
    expect(c.update(true, CONFIRM_MAX_MS + 5000)).toBe(false)
    expect(c.update(false, 20_000)).toBe(false)
    expect(c.update(true, 20_000 + CONFIRM_EVERY_MS - 1)).toBe(false)
    expect(c.update(false, 20_000 + CONFIRM_EVERY_MS)).toBe(false)
    expect(c.update(true, 20_000 + 2 * CONFIRM_EVERY_MS)).toBe(true)
  })
})
