import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Result } from '../contract/commands'
import type { PowerStatus } from '../contract/power'
import type { ServerStatus } from '../contract/server-state'
import type { PowerEvents } from '../platform/power-source'
import { serverStatus as statusOf } from '../../test/helpers/server-status'
import { BatteryPolicy, POWER_DEBOUNCE_MS } from './battery-policy'

const ac: PowerStatus = { source: 'ac', batteryPercent: 90, charging: true, saver: null }
const battery: PowerStatus = { source: 'battery', batteryPercent: 89, charging: false, saver: null }

/** The power source, plugged and unplugged by the test. */
class FakePower implements PowerEvents {
  status = ac
  readonly listeners = new Set<(s: PowerStatus) => void>()
  current(): PowerStatus {
    return this.status
  }
  onChange(listener: (s: PowerStatus) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
  set(status: PowerStatus): void {
    this.status = status
    for (const l of this.listeners) l(status)
  }
}

function harness(setting: string) {
  const power = new FakePower()
  let running: string | null = 'big'
  const said: string[] = []
  const calls: string[] = []
  let settings = setting
  const settingsListeners = new Set<() => void>()
  const policy = new BatteryPolicy({
    power,
    onBattery: () => settings,
    onSettingsChange: (l) => {
      settingsListeners.add(l)
      return () => settingsListeners.delete(l)
    },
    status: (): ServerStatus => (running ? statusOf('ready', { profileId: running }) : statusOf('stopped')),
    isProfile: async (id) => ['big', 'small', 'other'].includes(id),
    request: async (id): Promise<Result<ServerStatus>> => {
      calls.push(`request ${id}`)
      running = id
      return { ok: true, value: statusOf('ready', { profileId: id }) }
    },
    stopWhenIdle: async () => {
      calls.push('stop')
      running = null
    },
    nameOf: async (id) => id.toUpperCase(),
    say: (s) => said.push(s),
  })
  return {
    power,
    policy,
    said,
    calls,
    choose: (id: string) => (running = id),
    setSetting: (s: string) => {
      settings = s
      for (const l of settingsListeners) l()
    },
  }
}

/** The debounce passes, then what the change asked for is done. */
async function settle(h: ReturnType<typeof harness>): Promise<void> {
  await vi.advanceTimersByTimeAsync(POWER_DEBOUNCE_MS)
  await h.policy.settled()
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('the onBattery setting', () => {
  it('switches to the battery profile when unplugged and brings the one before back on AC, saying each once', async () => {
    const h = harness('small')
    h.power.set(battery)
    await settle(h)
    expect(h.calls).toEqual(['request small'])
    h.power.set(ac)
    await settle(h)
    expect(h.calls).toEqual(['request small', 'request big'])
    expect(h.said).toEqual(['On battery: switched from BIG to SMALL; BIG returns on AC.', 'On AC again: BIG is back.'])
  })

  it('stops the server on battery and starts it again on AC', async () => {
    const h = harness('stop')
    h.power.set(battery)
    await settle(h)
    h.power.set(ac)
    await settle(h)
    expect(h.calls).toEqual(['stop', 'request big'])
    expect(h.said[0]).toBe('On battery: stopped BIG to save power; it starts again on AC.')
  })

  it('waits for the change to settle: a plug that wobbles within 2 s does nothing', async () => {
    const h = harness('small')
    h.power.set(battery)
    await vi.advanceTimersByTimeAsync(POWER_DEBOUNCE_MS / 2)
    h.power.set(ac)
    await settle(h)
    expect(h.calls).toEqual([])
    expect(h.said).toEqual([])
  })

  it('keeps the server with keep (the default) and does not even listen', () => {
    const h = harness('keep')
    expect(h.power.listeners.size).toBe(0)
    h.setSetting('stop')
    expect(h.power.listeners.size).toBe(1)
    h.setSetting('keep')
    expect(h.power.listeners.size).toBe(0)
  })

  it('leaves a profile the user chose on battery running when AC comes back', async () => {
    const h = harness('small')
    h.power.set(battery)
    await settle(h)
    h.choose('other')
    h.power.set(ac)
    await settle(h)
    expect(h.calls).toEqual(['request small'])
    expect(h.said).toHaveLength(1)
  })
})
