import { describe, expect, it } from 'vitest'
import { decideSwitch, type HeldRequest, type PolicyInput } from './switch-policy'
import { replay } from '../../test/support/core/switch-replay'

const base: PolicyInput = {
  now: 0,
  running: 'a',
  ready: true,
  loadedAt: 0,
  inFlight: 0,
  held: [],
  decided: null,
  forced: false,
  minResidencyMs: 10_000,
  drainMs: 60_000,
}
const held = (...list: [number, string, number][]): HeldRequest[] =>
  list.map(([id, profileId, arrivedAt]) => ({ id, profileId, arrivedAt }))

describe('the switch policy', () => {
  it('serves held requests for the running profile at once while nothing else waits', () => {
    expect(decideSwitch({ ...base, held: held([1, 'a', 0], [2, 'a', 0]) })).toMatchObject({
      admit: [1, 2],
      switchTo: null,
      startNow: false,
    })
  })

  it('starts the oldest held profile when nothing runs', () => {
    expect(decideSwitch({ ...base, running: null, loadedAt: null, held: held([1, 'b', 0], [2, 'c', 1]) })).toMatchObject({
      switchTo: 'b',
      startNow: true,
    })
  })

  it('keeps the running profile its minimum residency while others wait, serving its own requests meanwhile', () => {
    const d = decideSwitch({ ...base, now: 4000, inFlight: 1, held: held([1, 'b', 1000], [2, 'a', 2000]) })
    expect(d).toMatchObject({ admit: [2], switchTo: null, wakeAt: 10_000 })
  })

  it('switches at once from a profile that has run past its residency, idle or not', () => {
    expect(decideSwitch({ ...base, now: 10_000, held: held([1, 'b', 9900]) })).toMatchObject({ switchTo: 'b', startNow: true })
  })

  it('after the residency, decides the switch, holds newer requests for the running profile, and drains the running ones', () => {
    const d = decideSwitch({ ...base, now: 10_000, inFlight: 2, held: held([1, 'a', 500], [2, 'b', 1000], [3, 'a', 9000]) })
    expect(d).toMatchObject({ admit: [1], switchTo: 'b', startNow: false, cutInFlight: false, wakeAt: 70_000 })
  })

  it('switches once the running requests are done', () => {
    expect(
      decideSwitch({ ...base, now: 12_000, decided: { target: 'b', at: 10_000 }, held: held([2, 'b', 1000], [3, 'a', 9000]) }),
    ).toMatchObject({ admit: [], switchTo: 'b', startNow: true })
  })

  it('cuts the running requests past the drain limit, and at once on "switch now"', () => {
    const decided = { target: 'b', at: 10_000 }
    const forB = held([2, 'b', 1000])
    expect(decideSwitch({ ...base, now: 69_999, inFlight: 1, decided, held: forB })).toMatchObject({ cutInFlight: false, wakeAt: 70_000 })
    expect(decideSwitch({ ...base, now: 70_000, inFlight: 1, decided, held: forB })).toMatchObject({ cutInFlight: true, startNow: false })
    expect(decideSwitch({ ...base, now: 1000, inFlight: 1, held: held([1, 'b', 500]), forced: true })).toMatchObject({
      switchTo: 'b',
      cutInFlight: true,
    })
  })

  it('does not switch while a start of the running profile is still under way (a watchdog restart is not a switch)', () => {
    expect(decideSwitch({ ...base, ready: false, held: held([1, 'a', 0]) })).toMatchObject({ admit: [], switchTo: null, startNow: false })
  })

  it('on A B A A C from five clients, loads each profile once where switching at once loads A twice', () => {
    const trace: [string, number][] = [
      ['a', 0],
      ['b', 100],
      ['a', 200],
      ['a', 300],
      ['c', 400],
    ]
    const grouped = replay(trace, 10_000)
    expect(grouped.loads).toEqual(['b', 'c'])
    expect(grouped.waits.every((w) => w !== null)).toBe(true)
    const atOnce = replay(trace, 0)
    expect(atOnce.loads).toEqual(['b', 'a', 'c'])
  })

  it('is fair: a steady stream for the running profile does not keep another waiting past residency and drain', () => {
    const trace: [string, number][] = [['b', 50], ...Array.from({ length: 200 }, (_, i): [string, number] => ['a', i * 500])]
    const { loads, waits } = replay(trace, 10_000)
    expect(loads[0]).toBe('b')
    expect(waits[0] as number).toBeLessThanOrEqual(10_000 + 60_000)
  })

  it('drops a decided switch nobody waits for any more, or moves it to the oldest other held profile, keeping its deadline', () => {
    const decided = { target: 'b', at: 10_000 }
    expect(decideSwitch({ ...base, now: 12_000, inFlight: 1, decided, held: held([3, 'a', 11_000]) })).toMatchObject({
      admit: [3],
      switchTo: null,
      cutInFlight: false,
    })
    expect(decideSwitch({ ...base, now: 12_000, inFlight: 1, decided, held: held([4, 'c', 11_500]) })).toMatchObject({
      switchTo: 'c',
      wakeAt: 70_000,
    })
  })
})
