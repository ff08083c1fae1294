import { combineGpuPower, UNKNOWN_GPU_POWER, type DevicePowerSource, type GpuPowerState } from '../device-power'
import { Sysfs } from '../sysfs'

const NVIDIA_VENDOR = '0x10de'
/** PCI class 0x03xxxx: display controllers (the GPU itself, not its HDMI audio function, 0x0403xx). */
const DISPLAY_CLASS = /^0x03/

/**
 * One NVIDIA PCI function's state from its sysfs attributes: `power_state` (D0, D3hot, D3cold: the kernel's
 * bookkeeping, read without waking the device) and `power/runtime_status` (active, suspended…).
 */
export function pciPowerState(powerState: string | null, runtimeStatus: string | null): GpuPowerState {
  const parts = [powerState, runtimeStatus === null ? null : `runtime ${runtimeStatus}`].filter((p): p is string => p !== null)
  const detail = parts.length > 0 ? parts.join(', ') : null
  if (powerState?.startsWith('D3') || runtimeStatus === 'suspended') return { kind: 'asleep', detail }
  if (powerState === 'D0' || runtimeStatus === 'active' || runtimeStatus === 'resuming') return { kind: 'awake', detail }
  return { kind: 'unknown', detail }
}

/** How long a found list of NVIDIA devices is trusted, and how often a machine without one is looked at again. */
export const PCI_RESCAN_MS = 60_000

/**
 * Linux: the NVIDIA display devices under <sysfs>/bus/pci/devices (vendor 0x10de). Finding them reads two files
 * of every PCI function, and a server has hundreds (2.25 ms a scan measured with 250): each tick would cost more
 * than the rest of an idle tick. So the list is kept, and looked for again only when a kept device has gone
 * (both attributes unreadable) or PCI_RESCAN_MS after the last look (a GPU added by hot plug, an eGPU).
 * Each tick then reads two small files per NVIDIA GPU.
 */
export class LinuxPciPower implements DevicePowerSource {
  private found: string[] | null = null
  private foundAt = 0

  constructor(
    private readonly sysfs = new Sysfs(),
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The PCI addresses of the NVIDIA GPUs (e.g. 0000:01:00.0), looked for now. */
  devices(): string[] {
    const base = ['bus', 'pci', 'devices']
    return this.sysfs
      .list(...base)
      .filter(
        (d) => this.sysfs.read(...base, d, 'vendor') === NVIDIA_VENDOR && DISPLAY_CLASS.test(this.sysfs.read(...base, d, 'class') ?? ''),
      )
  }

  read(): GpuPowerState {
    const stale = this.found === null || this.now() - this.foundAt >= PCI_RESCAN_MS
    let states = stale ? null : this.states(this.found ?? [])
    if (states === null) {
      this.found = this.devices()
      this.foundAt = this.now()
      states = this.states(this.found) ?? []
    }
    return states.length === 0 ? UNKNOWN_GPU_POWER : combineGpuPower(states)
  }

  /** Each device's state; null when one of them has gone (its attributes no longer there). */
  private states(devices: readonly string[]): GpuPowerState[] | null {
    const base = ['bus', 'pci', 'devices']
    const states: GpuPowerState[] = []
    for (const d of devices) {
      const powerState = this.sysfs.read(...base, d, 'power_state')
      const runtimeStatus = this.sysfs.read(...base, d, 'power', 'runtime_status')
      if (powerState === null && runtimeStatus === null && this.sysfs.read(...base, d, 'vendor') === null) return null
      states.push(pciPowerState(powerState, runtimeStatus))
    }
    return states
  }
}
