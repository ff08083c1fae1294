import { describe, expect, it } from 'vitest'
import type { PowerStatus } from '../app/contract/power'
import { FakePowerMonitor } from '../test/support/main/fake-electron'
import { AwakeClock } from '../app/lib/awake-clock'
import { ElectronPower } from './power-monitor'

const charge = { read: (): PowerStatus => ({ source: 'unknown', batteryPercent: 64, charging: false, saver: true }) }

describe("the app's power source from Electron's powerMonitor", () => {
  it('reads isOnBatteryPower() at start (no event fires then) and the charge from the platform reader', () => {
    const monitor = new FakePowerMonitor()
    monitor.onBattery = true
    expect(new ElectronPower(monitor, charge).current()).toEqual({ source: 'battery', batteryPercent: 64, charging: false, saver: true })
  })

  it('tells on-battery and on-ac as they come, and stops telling once unsubscribed', () => {
    const monitor = new FakePowerMonitor()
    const power = new ElectronPower(monitor, charge)
    const told: string[] = []
    const off = power.onChange((s) => told.push(s.source))
    monitor.onBattery = true
    monitor.emit('on-battery')
    monitor.onBattery = false
    monitor.emit('on-ac')
    off()
    monitor.emit('on-battery')
    expect(told).toEqual(['battery', 'ac'])
    expect(monitor.listenerCount('on-ac') + monitor.listenerCount('on-battery')).toBe(0)
  })

  it("tells powerMonitor's resume (the core then checks the server at once)", () => {
    const monitor = new FakePowerMonitor()
    const power = new ElectronPower(monitor, charge)
    let resumed = 0
    const off = power.onResume(() => resumed++)
    monitor.emit('suspend')
    monitor.emit('resume')
    off()
    monitor.emit('resume')
    expect(resumed).toBe(1)
  })

  it("leaves powerMonitor's suspend-to-resume span out of awake time (uptime, restart windows) and tells one resume", () => {
    const monitor = new FakePowerMonitor()
    const c = { wall: 1_000_000, mono: 0 }
    const awake = new AwakeClock({ wall: () => c.wall, mono: () => c.mono })
    awake.follow(new ElectronPower(monitor, charge))
    let resumes = 0
    awake.onResume(() => resumes++)
    const readySince = awake.now()
    c.wall += 60_000
    c.mono += 60_000
    monitor.emit('suspend')
    c.wall += 8 * 3_600_000 // a night with the lid closed; the monotonic clock ran on (Windows' QueryPerformanceCounter may)
    c.mono += 8 * 3_600_000
    monitor.emit('resume')
    c.wall += 1000
    c.mono += 1000
    expect(awake.now() - readySince).toBe(61_000)
    expect(c.wall - awake.wallOf(readySince)).toBe(61_000) // the uptime the status shows
    expect(awake.wokeRecently(readySince)).toBe(true) // an exit now is the sleep's: no restart counted
    expect(resumes).toBe(1)
  })
})
