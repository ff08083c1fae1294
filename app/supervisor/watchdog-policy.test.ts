import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_WATCHDOG,
  judgeWatchdogTick,
  nextProbeDelayMs,
  QUIET_PROBE_FACTOR,
  unresponsiveReason,
  watchdogEnabled,
  type WatchdogTick,
} from './watchdog-policy'

const MISS: WatchdogTick = { asleep: false, answered: false, progressed: false }

describe('watchdog policy', () => {
  it('with the defaults (every 10 s), three unanswered ticks in a row without progress mean hung: "stopped answering for 30 s"', () => {
    let misses = 0
    const verdicts: boolean[] = []
    for (let tick = 1; tick <= 3; tick++) {
      const v = judgeWatchdogTick(misses, MISS)
      misses = v.misses
      verdicts.push(v.hung)
    }
    expect(verdicts).toEqual([false, false, true])
    expect(unresponsiveReason()).toBe('llama-server stopped answering for 30 s')
    expect(unresponsiveReason({ intervalMs: 500, misses: 3 })).toBe('llama-server stopped answering for 1.5 s')
  })

  it.each<[string, WatchdogTick]>([
    ['an answer (any HTTP status)', { asleep: false, answered: true, progressed: false }],
    ['progress in the log while /health timed out (a busy server)', { asleep: false, answered: false, progressed: true }],
    ['a sleeping server (not probed: nothing to watch)', { asleep: true, answered: false, progressed: false }],
  ])('%s resets the count', (_what, tick) => {
    expect(judgeWatchdogTick(5, tick)).toEqual({ misses: 0, hung: false })
  })

  it('counts a miss after progress from zero again', () => {
    const options = { intervalMs: 500, misses: 3 }
    const ticks: WatchdogTick[] = [MISS, MISS, { ...MISS, progressed: true }, MISS, MISS, MISS]
    let misses = 0
    const seen = ticks.map((t) => {
      const v = judgeWatchdogTick(misses, t, options)
      misses = v.misses
      return `${v.misses}${v.hung ? '!' : ''}`
    })
    expect(seen).toEqual(['1', '2', '0', '1', '2', '3!'])
  })

  it('property: hung exactly when the last `misses` ticks were all misses', () => {
    const tick = fc.record({ asleep: fc.boolean(), answered: fc.boolean(), progressed: fc.boolean() })
    fc.assert(
      fc.property(fc.array(tick, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 8 }), (ticks, limit) => {
        let misses = 0
        ticks.forEach((t, i) => {
          const v = judgeWatchdogTick(misses, t, { intervalMs: 1000, misses: limit })
          misses = v.misses
          let run = 0
          for (let j = i; j >= 0 && !ticks[j]!.asleep && !ticks[j]!.answered && !ticks[j]!.progressed; j--) run++
          expect(v.misses).toBe(run)
          expect(v.hung).toBe(run >= limit)
        })
      }),
    )
  })

  it('is off with a zero interval', () => {
    expect(watchdogEnabled(DEFAULT_WATCHDOG)).toBe(true)
    expect(watchdogEnabled({ intervalMs: 0, misses: 6 })).toBe(false)
  })

  it('probes an idle server (answered or asleep, log quiet) less often, and a working or silent one at the interval', () => {
    const options = { intervalMs: 10_000, misses: 3 }
    const idle = options.intervalMs * QUIET_PROBE_FACTOR
    expect(nextProbeDelayMs({ asleep: false, answered: true, progressed: false }, options)).toBe(idle)
    expect(nextProbeDelayMs({ asleep: true, answered: false, progressed: false }, options)).toBe(idle)
    expect(nextProbeDelayMs({ asleep: false, answered: true, progressed: true }, options)).toBe(options.intervalMs)
    expect(nextProbeDelayMs({ asleep: false, answered: false, progressed: false }, options)).toBe(options.intervalMs)
    expect(nextProbeDelayMs({ asleep: false, answered: false, progressed: true }, options)).toBe(options.intervalMs)
  })
})
