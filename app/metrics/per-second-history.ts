import type { GenerationSecond } from '../contract/generation'
import { RingBuffer } from '../lib/ring-buffer'

/**
 * Folds rate samples (one per poll) into one point per wall-clock second: the
 * mean of the second's samples. Bounded to `capacity` seconds.
 */
export class PerSecondHistory {
  private readonly ring: RingBuffer<GenerationSecond>
  private bucket: { second: number; sum: number; count: number; activeSlots: number } | null = null

  constructor(capacity = 300) {
    this.ring = new RingBuffer(capacity)
  }

  /** `time`: epoch ms of the sample. */
  add(time: number, tokensPerSecond: number, activeSlots: number): void {
    const second = Math.floor(time / 1000)
    const b = this.bucket
    if (b && b.second === second) {
      b.sum += tokensPerSecond
      b.count++
      b.activeSlots = Math.max(b.activeSlots, activeSlots)
      return
    }
    if (b && second < b.second) return // the clock went back: drop rather than reorder
    this.close()
    this.bucket = { second, sum: tokensPerSecond, count: 1, activeSlots }
  }

  /** Closed seconds plus the current one, oldest first. */
  points(): GenerationSecond[] {
    const out = this.ring.tail()
    const b = this.bucket
    if (b) out.push({ time: b.second * 1000, tokensPerSecond: b.sum / b.count, activeSlots: b.activeSlots })
    return out.slice(-this.ring.capacity)
  }

  private close(): void {
    const b = this.bucket
    if (b) this.ring.push({ time: b.second * 1000, tokensPerSecond: b.sum / b.count, activeSlots: b.activeSlots })
    this.bucket = null
  }
}
