import type { PowerStatus } from '../contract/power'
import type { PowerEvents, PowerSourceReader } from './power-source'

/** How often the CLI reads the power source while someone listens (Windows sends a console process no event). */
export const POWER_POLL_MS = 3000

/**
 * Power events from reading the source: current() reads it now; while a listener is subscribed it is read every
 * POWER_POLL_MS (an unref'd timer: it never keeps the CLI alive) and a change of source is told. No listener, no timer:
 * the idle CLI wakes for nothing when the onBattery setting is `keep`.
 */
export class PolledPower implements PowerEvents {
  private readonly listeners = new Set<(status: PowerStatus) => void>()
  private timer: NodeJS.Timeout | null = null
  private last: PowerStatus | null = null

  constructor(
    private readonly reader: PowerSourceReader,
    private readonly intervalMs = POWER_POLL_MS,
  ) {}

  current(): PowerStatus {
    return this.reader.read()
  }

  onChange(listener: (status: PowerStatus) => void): () => void {
    this.listeners.add(listener)
    if (!this.timer) {
      this.last = this.reader.read()
      this.timer = setInterval(() => this.poll(), this.intervalMs)
      this.timer.unref()
    }
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer)
        this.timer = null
      }
    }
  }

  private poll(): void {
    const now = this.reader.read()
    const changed = this.last !== null && now.source !== this.last.source
    this.last = now
    if (changed) for (const l of [...this.listeners]) l(now)
  }
}
