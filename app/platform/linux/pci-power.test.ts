import { afterEach, describe, expect, it } from 'vitest'
import { FakeSysfs } from '../../../test/support/platform/fake-sysfs'
import { Sysfs, sysfsRoot } from '../sysfs'
import { LinuxPciPower, PCI_RESCAN_MS, pciPowerState } from './pci-power'

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

  it('reads only the NVIDIA GPU each time once found, and looks for devices again when one goes or a minute on', () => {
    fake = new FakeSysfs()
    for (let i = 0; i < 40; i++) fake.pciDevice(`0000:00:${i.toString(16).padStart(2, '0')}.0`, '0x8086', '0x060400', 'D0', 'active')
    fake.pciDevice('0000:41:00.0', '0x10de', '0x030000', 'D0', 'active')
    const reads: string[] = []
    class CountingSysfs extends Sysfs {
      override read(...parts: string[]): string | null {
        reads.push(parts.join('/'))
        return super.read(...parts)
      }
    }
    let now = 0
    const power = new LinuxPciPower(new CountingSysfs(fake.root), () => now)
    expect(power.read().kind).toBe('awake')
    expect(reads.length).toBeGreaterThan(40) // the first look reads every function's vendor
    reads.length = 0
    fake.gpuPower('0000:41:00.0', 'D3cold', 'suspended')
    now = PCI_RESCAN_MS - 1
    expect(power.read().kind).toBe('asleep')
    expect(reads).toEqual(['bus/pci/devices/0000:41:00.0/power_state', 'bus/pci/devices/0000:41:00.0/power/runtime_status'])

    // A second NVIDIA GPU plugged in is found at the next look, a minute after the last.
    fake.pciDevice('0000:42:00.0', '0x10de', '0x030000', 'D0', 'active')
    expect(power.read().kind).toBe('asleep')
    now = PCI_RESCAN_MS
    expect(power.read()).toEqual({ kind: 'awake', detail: 'D3cold, runtime suspended; D0, runtime active' })

    // A kept device that has gone is looked for again at once.
    fake.removePciDevice('0000:42:00.0')
    expect(power.read()).toEqual({ kind: 'asleep', detail: 'D3cold, runtime suspended' })
  })

  it('looks again for a GPU on a machine without one no more than once a minute', () => {
    fake = new FakeSysfs()
    let now = 0
    const power = new LinuxPciPower(new Sysfs(fake.root), () => now)
    expect(power.read().kind).toBe('unknown')
    fake.pciDevice('0000:01:00.0', '0x10de', '0x030000', 'D0', 'active')
    now = PCI_RESCAN_MS - 1
    expect(power.read().kind).toBe('unknown')
    now = PCI_RESCAN_MS
    expect(power.read().kind).toBe('awake')
  })

  it('reads /sys unless LLAMA_TRAY_SYSFS names another root', () => {
    expect(sysfsRoot({})).toBe('/sys')
    expect(sysfsRoot({ LLAMA_TRAY_SYSFS: '/tmp/fake' })).toBe('/tmp/fake')
  })
})
