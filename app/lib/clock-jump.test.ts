import { describe, expect, it } from 'vitest'
import { ClockJump } from './clock-jump'

describe('the clock jump that marks a resume', () => {
  it('says how long the machine slept when wall time runs far ahead of monotonic time, and nothing otherwise', () => {
    let wall = 1_000_000
    let mono = 500
    const jump = new ClockJump({ wall: () => wall, mono: () => mono })
    expect(jump.check()).toBeNull()
    wall += 1000
    mono += 1000
    expect(jump.check()).toBeNull()
    wall += 3_600_000 + 1000 // an hour asleep, then a second awake
    mono += 1000
    expect(jump.check()).toBe(3_600_000)
    wall += 5000 // an NTP step of a few seconds is no sleep
    mono += 1000
    expect(jump.check()).toBeNull()
  })
})
