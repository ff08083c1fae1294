import { UNKNOWN_POWER } from '../contract/power'
import { LinuxPowerSupply } from './linux/power-supply'
import type { PowerSourceReader } from './power-source'
import { Sysfs } from './sysfs'
import { WindowsSystemPower } from './win32/system-power'

/** This platform's power-source reader (none elsewhere: it always reads "unknown"). */
export function platformPowerSource(platform: NodeJS.Platform = process.platform, sysfs = new Sysfs()): PowerSourceReader {
  if (platform === 'linux') return new LinuxPowerSupply(sysfs)
  if (platform === 'win32') return new WindowsSystemPower()
  return { read: () => UNKNOWN_POWER }
}
