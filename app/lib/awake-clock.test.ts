import { describe, expect, it } from 'vitest'
import { AFTER_RESUME_MS, AwakeClock } from './awake-clock'

const HOUR = 3_600_000

function clocks(): { wall: number; mono: number; readonly clocks: { wall: () => number; mono: () => number } } {
  const c = {
    wall: 1_000_000,
    mono: 500,
    clocks: { wall: () => c.wall, mono: () => c.mono },
  }
  return c
}

describe('awake time: what uptime, load times and the restart windows count', () => {
  it('leaves out a sleep the monotonic clock did not count (Linux; the CLI sees it only as a wall-clock jump)', () => {
    const c = clocks()
    const awake = new AwakeClock(c.clocks)
    let resumes = 0
    awake.onResume(() => resumes++)
    const since = awake.now()
    c.wall += 10_000
    c.mono += 10_000
    c.wall += HOUR // asleep: wall time moves, monotonic time stands still
    c.wall += 2000
    c.mono += 2000
    expect(awake.now() - since).toBe(12_000)
    expect(c.wall - awake.wallOf(since)).toBe(12_000) // the uptime the status shows: 12 s, not an hour
    expect(resumes).toBe(1)
    expect(awake.now() - since).toBe(12_000) // the same jump is told once
    expect(resumes).toBe(1)
  })

  it("leaves out the span between powerMonitor's suspend and resume where the monotonic clock counted it (Windows)", () => {
    const c = clocks()
    const awake = new AwakeClock(c.clocks)
    let resumes = 0
    awake.onResume(() => resumes++)
    const since = awake.now()
    c.wall += 5000
    c.mono += 5000
    awake.suspended()
    c.wall += HOUR
    c.mono += HOUR // QueryPerformanceCounter may run on through the sleep
    awake.resumed()
    c.wall += 1000
    c.mono += 1000
    expect(awake.now() - since).toBe(6000)
    expect(c.wall - awake.wallOf(since)).toBe(6000)
    expect(resumes).toBe(1)
  })

  it('counts one resume when powerMonitor tells it and the clocks show the same sleep as a jump', () => {
    const c = clocks()
    const awake = new AwakeClock(c.clocks)
    let resumes = 0
    awake.onResume(() => resumes++)
    awake.suspended()
    c.wall += HOUR
    awake.now() // something reads the time before the resume event arrives
    awake.resumed()
    expect(resumes).toBe(1)
  })

  it('says whether the machine woke under a process lately (its end is then the sleep, not a crash)', () => {
    const c = clocks()
    const awake = new AwakeClock(c.clocks)
    const spawned = awake.now()
    expect(awake.wokeRecently(spawned)).toBe(false)
    c.wall += HOUR
    c.mono += 100
    expect(awake.wokeRecently(spawned)).toBe(true)
    const later = awake.now()
    c.wall += AFTER_RESUME_MS + 1000
    c.mono += AFTER_RESUME_MS + 1000
    expect(awake.wokeRecently(spawned)).toBe(false) // long awake since: an end now is the server's own
    expect(awake.wokeRecently(later + 1)).toBe(false) // spawned after the resume: it never slept
  })

  it('turns monotonic stamps into awake time, so that a rate over a sleep leaves it out', () => {
    const c = clocks()
    const awake = new AwakeClock(c.clocks)
    const before = awake.ofMono(c.mono)
    awake.suspended()
    c.mono += HOUR
    c.wall += HOUR
    awake.resumed()
    c.mono += 1000
    c.wall += 1000
    expect(awake.ofMono(c.mono) - before).toBe(1000)
  })
})
