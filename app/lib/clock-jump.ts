/** Wall time ahead of monotonic time by more than this between two looks: the machine slept in between. */
export const SLEEP_JUMP_MS = 15_000

export interface Clocks {
  /** Epoch ms (moves across a sleep). */
  wall(): number
  /** Monotonic ms (performance.now(): on Linux it stands still while the machine sleeps). */
  mono(): number
}

export const SYSTEM_CLOCKS: Clocks = { wall: () => Date.now(), mono: () => performance.now() }

/**
 * The CLI's resume signal, where no powerMonitor tells it: between two looks, wall time moved far more than monotonic
 * time. check() answers how long the machine slept (ms), or null. Where the monotonic clock counts sleep too (Windows'
 * QueryPerformanceCounter may) this sees nothing: the app's powerMonitor 'resume' covers Windows.
 */
export class ClockJump {
  private last: { wall: number; mono: number } | null = null

  constructor(
    private readonly clocks: Clocks = SYSTEM_CLOCKS,
    private readonly thresholdMs = SLEEP_JUMP_MS,
  ) {}

  check(): number | null {
    const now = { wall: this.clocks.wall(), mono: this.clocks.mono() }
    const last = this.last
    this.last = now
    if (!last) return null
    const slept = now.wall - last.wall - (now.mono - last.mono)
    return slept > this.thresholdMs ? slept : null
  }
}
