import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IdleBeat } from './idle-beat'

// Fake timers, and the beat's monotonic clock read from the faked Date, so that it moves with them.
beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(1_234)
})
afterEach(() => vi.useRealTimers())

const mono = (): number => Date.now()
const advance = (ms: number): void => void vi.advanceTimersByTime(ms)

describe('the idle beat', () => {
  it('ends a pause on the nearest beat, never at once', () => {
    const beat = new IdleBeat(5000, mono)
    expect(beat.beatAfter(5000, 0)).toBe(5000)
    expect(beat.beatAfter(5000, 10)).toBe(5000) // armed 10 ms after a beat: it ends on the next one
    expect(beat.beatAfter(5000, 2600)).toBe(10_000) // at most half a beat later
    expect(beat.beatAfter(10_000, 4000)).toBe(15_000)
    expect(beat.beatAfter(5000, 4999)).toBe(10_000)
  })

  it('wakes the pauses that end on the same beat with one timer, in the order they were asked', () => {
    const beat = new IdleBeat(5000, mono)
    const calls: string[] = []
    beat.after(5000, () => calls.push('tick')) // from 1,234: the beat at 5,000
    advance(7) // the watchdog's pause, a few ms later, and a longer one
    beat.after(5000, () => calls.push('watchdog'))
    beat.after(8000, () => calls.push('slots')) // 9,241: the beat at 10,000
    expect(beat.armed).toBe(2)
    expect(vi.getTimerCount()).toBe(2)
    advance(5000 - 1241 - 1)
    expect(calls).toEqual([])
    advance(1)
    expect(calls).toEqual(['tick', 'watchdog'])
    advance(5000)
    expect(calls).toEqual(['tick', 'watchdog', 'slots'])
    expect(beat.armed).toBe(0)
  })

  it('keeps a chain of whole beats on the grid', () => {
    const beat = new IdleBeat(5000, mono)
    const at: number[] = []
    const again = (): void => {
      at.push(mono())
      if (at.length < 4) beat.after(5000, again)
    }
    beat.after(5000, again)
    advance(30_000)
    expect(at).toEqual([5000, 10_000, 15_000, 20_000])
  })

  it('calls nothing cancelled, and clears a beat nobody waits for', () => {
    const beat = new IdleBeat(5000, mono)
    const fn = vi.fn()
    const kept = vi.fn()
    const cancel = beat.after(6000, fn)
    beat.after(6000, kept)
    cancel()
    cancel()
    expect(beat.armed).toBe(1)
    advance(10_000)
    expect(fn).not.toHaveBeenCalled()
    expect(kept).toHaveBeenCalledOnce()
    beat.after(6000, fn)()
    expect(beat.armed).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('leaves pauses shorter than a beat exact', () => {
    const beat = new IdleBeat(5000, mono)
    const fn = vi.fn()
    beat.after(1000, fn)
    expect(beat.armed).toBe(0)
    advance(999)
    expect(fn).not.toHaveBeenCalled()
    advance(1)
    expect(fn).toHaveBeenCalledOnce()
  })

  it('sleeps until its beat or until the signal aborts', async () => {
    const beat = new IdleBeat(5000, mono)
    let slept = false
    void beat.sleep(5000).then(() => (slept = true))
    advance(3766)
    await Promise.resolve()
    expect(slept).toBe(true)
    const abort = new AbortController()
    let aborted = false
    void beat.sleep(60_000, abort.signal).then(() => (aborted = true))
    abort.abort()
    await Promise.resolve()
    expect(aborted).toBe(true)
    expect(beat.armed).toBe(0)
  })
})
