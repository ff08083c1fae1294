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

/** Linux: the NVIDIA display devices under <sysfs>/bus/pci/devices (vendor 0x10de). */
export class LinuxPciPower implements DevicePowerSource {
  constructor(private readonly sysfs = new Sysfs()) {}

  /** The PCI addresses of the NVIDIA GPUs (e.g. 0000:01:00.0). */
  devices(): string[] {
    const base = ['bus', 'pci', 'devices']
    return this.sysfs
      .list(...base)
      .filter(
        (d) => this.sysfs.read(...base, d, 'vendor') === NVIDIA_VENDOR && DISPLAY_CLASS.test(this.sysfs.read(...base, d, 'class') ?? ''),
      )
  }

  read(): GpuPowerState {
    const devices = this.devices()
    if (devices.length === 0) return UNKNOWN_GPU_POWER
    const base = ['bus', 'pci', 'devices']
    return combineGpuPower(
      devices.map((d) => pciPowerState(this.sysfs.read(...base, d, 'power_state'), this.sysfs.read(...base, d, 'power', 'runtime_status'))),
    )
  }
}
