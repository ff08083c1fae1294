import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { backoffDelay, decideRestart, DEFAULT_RESTART_POLICY, endsTheRun } from './restart-policy'
import { diagnoseExitStatus } from './exit-status'

describe('restart policy', () => {
  it('backs off 1, 2, 4, 8 s and gives up at the 5th unstable exit in a row', () => {
    let count = 0
    const delays: number[] = []
    for (let exit = 1; exit <= 5; exit++) {
      const d = decideRestart(count, 5_000)
      count = d.unstableExits
      if (d.action === 'restart') delays.push(d.delayMs)
      else expect(exit).toBe(5)
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000])
  })

  it('caps the delay at 30 s', () => {
    expect(backoffDelay(6)).toBe(30_000)
    expect(backoffDelay(40)).toBe(30_000)
  })

  it('a run that stayed ready for 60 s resets the count', () => {
    expect(decideRestart(4, 60_000)).toEqual({ action: 'restart', delayMs: 1000, unstableExits: 0 })
    expect(decideRestart(4, 59_999)).toEqual({ action: 'give-up', unstableExits: 5 })
  })

  it('an exit before ready is unstable', () => {
    expect(decideRestart(0, null)).toEqual({ action: 'restart', delayMs: 1000, unstableExits: 1 })
  })

  it('property: the breaker trips exactly at the 5th consecutive unstable exit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 200_000 })), { minLength: 1, maxLength: 40 }),
        (readyTimes) => {
          let count = 0
          let run = 0
          for (const readyFor of readyTimes) {
            const stable = readyFor !== null && readyFor >= DEFAULT_RESTART_POLICY.stableAfterMs
            run = stable ? 0 : run + 1
            const d = decideRestart(count, readyFor)
            expect(d.unstableExits).toBe(run)
            expect(d.action).toBe(run >= 5 ? 'give-up' : 'restart')
            if (d.action === 'give-up') return
            expect(d.delayMs).toBeLessThanOrEqual(30_000)
            count = d.unstableExits
          }
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('a start that fails before ready', () => {
  const dllInit = diagnoseExitStatus(0xc0000142, null)!
  const dllMissing = diagnoseExitStatus(0xc0000135, null)!
  it('ends the run at once when it is deterministic (a missing DLL), and never when it is not (a crash)', () => {
    expect(endsTheRun(dllMissing, null)).toBe(true)
    expect(endsTheRun(diagnoseExitStatus(0xc0000005, null)!, null)).toBe(false)
    expect(endsTheRun(diagnoseExitStatus(0xc0000005, null)!, diagnoseExitStatus(0xc0000005, null)!.reason)).toBe(false)
  })
  it('gets one more start after STATUS_DLL_INIT_FAILED, and ends the run when the second start fails the same way', () => {
    expect(dllInit.retryOnce).toBe(true)
    expect(endsTheRun(dllInit, null)).toBe(false)
    expect(endsTheRun(dllInit, 'llama-server exited with code 1')).toBe(false)
    expect(endsTheRun(dllInit, dllInit.reason)).toBe(true)
  })
})
