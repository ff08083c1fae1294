import { afterEach, describe, expect, it } from 'vitest'
import { FakeSysfs } from '../../../test/support/platform/fake-sysfs'
import { Sysfs, sysfsRoot } from '../sysfs'
import { LinuxPciPower, pciPowerState } from './pci-power'

let fake: FakeSysfs | null = null
afterEach(() => {
  fake?.remove()
  fake = null
})

describe('the NVIDIA GPU power state from sysfs', () => {
  it('reads D3cold or a suspended runtime status as asleep, D0 or active as awake', () => {
    expect(pciPowerState('D3cold', 'suspended')).toEqual({ kind: 'asleep', detail: 'D3cold, runtime suspended' })
    expect(pciPowerState('D3hot', null)).toEqual({ kind: 'asleep', detail: 'D3hot' })
    expect(pciPowerState(null, 'suspended').kind).toBe('asleep')
    expect(pciPowerState('D0', 'active')).toEqual({ kind: 'awake', detail: 'D0, runtime active' })
    expect(pciPowerState('unknown', 'unsupported').kind).toBe('unknown')
    expect(pciPowerState(null, null)).toEqual({ kind: 'unknown', detail: null })
  })

  it('finds the NVIDIA display function among PCI devices and follows its state, ignoring its audio function and other vendors', () => {
    fake = new FakeSysfs()
    fake.pciDevice('0000:00:02.0', '0x8086', '0x030000', 'D0', 'active') // the integrated GPU
    fake.pciDevice('0000:01:00.0', '0x10de', '0x030000', 'D3cold', 'suspended')
    fake.pciDevice('0000:01:00.1', '0x10de', '0x040300', 'D0', 'active') // its HDMI audio
    const power = new LinuxPciPower(new Sysfs(fake.root))
    expect(power.devices()).toEqual(['0000:01:00.0'])
    expect(power.read()).toEqual({ kind: 'asleep', detail: 'D3cold, runtime suspended' })
    fake.gpuPower('0000:01:00.0', 'D0', 'active')
    expect(power.read().kind).toBe('awake')
  })

  it('says unknown where there is no NVIDIA PCI device (WSL, a desktop without one)', () => {
    fake = new FakeSysfs()
    fake.pciDevice('0000:00:02.0', '0x8086', '0x030000', 'D0', 'active')
    expect(new LinuxPciPower(new Sysfs(fake.root)).read()).toEqual({ kind: 'unknown', detail: null })
    expect(new LinuxPciPower(new Sysfs('/nonexistent-sysfs')).read().kind).toBe('unknown')
  })

  it('reads /sys unless LLAMA_TRAY_SYSFS names another root', () => {
    expect(sysfsRoot({})).toBe('/sys')
    expect(sysfsRoot({ LLAMA_TRAY_SYSFS: '/tmp/fake' })).toBe('/tmp/fake')
  })
})
