/** A fixed-capacity FIFO that drops the oldest items once full. */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[]
  private start = 0
  private count = 0

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`)
    this.items = new Array<T | undefined>(capacity)
  }

  get size(): number {
    return this.count
  }

  push(item: T): void {
    const end = (this.start + this.count) % this.capacity
    this.items[end] = item
    if (this.count < this.capacity) this.count++
    else this.start = (this.start + 1) % this.capacity
  }

  /** The newest `max` items, oldest first. */
  tail(max = this.count): T[] {
    const n = Math.max(0, Math.min(max, this.count))
    const out: T[] = []
    for (let i = this.count - n; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T)
    return out
  }

  clear(): void {
    this.items.fill(undefined)
    this.start = 0
    this.count = 0
  }
}
