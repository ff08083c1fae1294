import { afterEach, describe, expect, it } from 'vitest'
import { FakeSysfs } from '../../../test/support/platform/fake-sysfs'
import { Sysfs } from '../sysfs'
import { LinuxPowerSupply, powerFromSupplies } from './power-supply'

let fake: FakeSysfs | null = null
afterEach(() => {
  fake?.remove()
  fake = null
})

describe('the power source from /sys/class/power_supply', () => {
  it('follows the charger being plugged and unplugged, with the battery charge and whether it charges', () => {
    fake = new FakeSysfs()
    const reader = new LinuxPowerSupply(new Sysfs(fake.root))
    fake.supplies(true, 80, 'Charging')
    expect(reader.read()).toEqual({ source: 'ac', batteryPercent: 80, charging: true, saver: null })
    fake.supplies(false, 79, 'Discharging')
    expect(reader.read()).toEqual({ source: 'battery', batteryPercent: 79, charging: false, saver: null })
  })

  it('says unknown with no supply listed (a desktop, a container) and reads a battery without a charger entry by its status', () => {
    expect(new LinuxPowerSupply(new Sysfs('/nonexistent-sysfs')).read().source).toBe('unknown')
    const battery = (status: string) => ({ type: 'Battery', online: null, capacity: '55', status })
    expect(powerFromSupplies([battery('Discharging')]).source).toBe('battery')
    expect(powerFromSupplies([battery('Full')]).source).toBe('ac')
    expect(powerFromSupplies([battery('Unknown')]).source).toBe('unknown')
    expect(powerFromSupplies([{ type: 'Mains', online: '1', capacity: null, status: null }])).toEqual({
      source: 'ac',
      batteryPercent: null,
      charging: null,
      saver: null,
    })
    expect(powerFromSupplies([{ type: 'USB', online: '1', capacity: null, status: null }, battery('Charging')]).source).toBe('ac')
  })
})
