import { describe, expect, it } from 'vitest'
import { RingBuffer } from './ring-buffer'

describe('RingBuffer', () => {
  it('keeps the newest items in order', () => {
    const b = new RingBuffer<number>(3)
    for (let i = 1; i <= 5; i++) b.push(i)
    expect(b.tail()).toEqual([3, 4, 5])
    expect(b.tail(2)).toEqual([4, 5])
    expect(b.size).toBe(3)
    b.clear()
    expect(b.tail()).toEqual([])
  })

  it('rejects a bad capacity', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError)
  })
})
