import { UNKNOWN_GPU_POWER, type DevicePowerSource } from './device-power'
import { LinuxPciPower } from './linux/pci-power'
import { Sysfs } from './sysfs'
import { WindowsDevicePower } from './win32/device-power'

/** This platform's way to read the NVIDIA GPU's power state (none elsewhere: then it always reads "unknown"). */
export function platformDevicePower(platform: NodeJS.Platform = process.platform, sysfs = new Sysfs()): DevicePowerSource {
  if (platform === 'linux') return new LinuxPciPower(sysfs)
  if (platform === 'win32') return new WindowsDevicePower()
  return { read: () => UNKNOWN_GPU_POWER }
}
