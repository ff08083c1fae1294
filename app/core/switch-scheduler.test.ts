import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../contract/server-state'
import { Listeners } from '../lib/listeners'
import { SwitchScheduler } from './switch-scheduler'
import { serverStatus } from '../../test/helpers/server-status'

const ready = (profileId: string, port: number): ServerStatus => serverStatus('ready', { profileId, port })

/** A supervisor the test moves by hand, and a scheduler over it that records its loads. */
function setup(refusals: Record<string, string> = {}) {
  const listeners = new Listeners<{ state: (s: ServerStatus) => void }>()
  let current = ready('a', 1)
  const set = (next: ServerStatus): void => {
    current = next
    listeners.emit('state', current)
  }
  const loads: string[] = []
  const scheduler = new SwitchScheduler({
    status: () => current,
    onState: (l) => listeners.on('state', l),
    check: async (id) => refusals[id] ?? null,
    load: async (id) => {
      loads.push(id)
      set(ready(id, 2))
      return { ok: true, value: current }
    },
    settings: () => ({ switchMinResidencyS: 0, switchDrainS: 3600 }),
  })
  return { scheduler, set, loads }
}

describe('the switch scheduler', () => {
  it('holds a request for the profile a watchdog restart brings back, without a same-profile switch', async () => {
    const { scheduler, set, loads } = setup()
    // The watchdog stops the hung server (its pid and port still) and starts it again.
    set(serverStatus('stopping', { profileId: 'a', port: 1 }))
    const lease = scheduler.acquire('a', new AbortController().signal)
    set(serverStatus('starting', { profileId: 'a', pid: null, host: null, port: null }))
    set(ready('a', 3))
    ;(await lease).release()
    expect(loads).toEqual([])
  })

  it('refuses a profile that cannot start with its reason, and stops nothing', async () => {
    const { scheduler, loads } = setup({ b: 'Profile "b" cannot start, so "a" keeps running: the model file does not exist.' })
    await expect(scheduler.request('b')).resolves.toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'Profile "b" cannot start, so "a" keeps running: the model file does not exist.' }),
    })
    expect(loads).toEqual([])
  })

  it('a click waits for the running request; the snapshot says so; "switch now" cuts it with an error naming the switch', async () => {
    const { scheduler, loads } = setup()
    const running = await scheduler.acquire('a', new AbortController().signal)
    const click = scheduler.request('b')
    await new Promise((r) => setImmediate(r))
    expect(scheduler.pending()).toMatchObject({ profileId: 'b', fromProfileId: 'a', runningRequests: 1 })
    expect(scheduler.pending()?.sentence).toMatch(
      /^Profile "b" replaces "a" after 1 running request \(at most \d+ s\); "Switch now" cuts them\.$/,
    )
    expect(loads).toEqual([])
    expect(scheduler.switchNow()).toEqual({ ok: true, value: 'b' })
    expect(running.signal.aborted).toBe(true)
    expect((running.signal.reason as Error).message).toMatch(/^The server was switched from profile "a" to "b" with "Switch now"/)
    running.release()
    await expect(click).resolves.toMatchObject({ ok: true })
    expect(loads).toEqual(['b'])
    expect(scheduler.switchNow()).toMatchObject({ ok: false })
  })

  it('the last choice wins: a later click replaces a waiting one, which hears which', async () => {
    const { scheduler, loads } = setup()
    const running = await scheduler.acquire('a', new AbortController().signal)
    const toB = scheduler.request('b')
    await new Promise((r) => setImmediate(r))
    expect(scheduler.pending()).toMatchObject({ profileId: 'b' })
    const toBAgain = scheduler.request('b') // the same choice twice waits as one
    const toC = scheduler.request('c')
    await expect(toBAgain).resolves.toMatchObject({ ok: false })
    await expect(toB).resolves.toMatchObject({
      ok: false,
      error: { sentence: 'The switch to profile "b" was replaced by a later choice of "c"; choose it again to switch to it.' },
    })
    await new Promise((r) => setImmediate(r))
    expect(scheduler.pending()).toMatchObject({ profileId: 'c', fromProfileId: 'a' })
    expect(scheduler.lastChoice()).toBe('c')
    running.release()
    await expect(toC).resolves.toMatchObject({ ok: true })
    expect(loads).toEqual(['c'])
  })

  it('a click back on the running profile withdraws the waiting switch; clients still held for it keep theirs', async () => {
    const { scheduler, loads } = setup()
    const running = await scheduler.acquire('a', new AbortController().signal)
    const toB = scheduler.request('b')
    await new Promise((r) => setImmediate(r))
    await expect(scheduler.request('a')).resolves.toMatchObject({ ok: true })
    // The user's own withdrawal: the waiting click ends without a failure to show, on the running profile.
    await expect(toB).resolves.toMatchObject({ ok: true, value: { profileId: 'a', state: 'ready' } })
    expect(scheduler.pending()).toBeNull()
    running.release()
    expect(loads).toEqual([])
    // A client's request is not a choice: a click does not withdraw it.
    const client = scheduler.acquire('b', new AbortController().signal)
    await expect(scheduler.request('a')).resolves.toMatchObject({ ok: true })
    ;(await client).release()
    expect(loads).toEqual(['b'])
  })
})
