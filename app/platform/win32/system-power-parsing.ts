import type { PowerStatus } from '../../contract/power'

/** SYSTEM_POWER_STATUS: four BYTEs (ACLineStatus, BatteryFlag, BatteryLifePercent, SystemStatusFlag), two DWORDs. */
export const SYSTEM_POWER_STATUS_SIZE = 12

const BATTERY_CHARGING = 8
const NO_BATTERY = 128
const UNKNOWN_BYTE = 255

/** The power status from the bytes GetSystemPowerStatus wrote; unknown fields (255) become null. */
export function decodeSystemPowerStatus(buffer: Uint8Array): PowerStatus {
  const [ac = UNKNOWN_BYTE, flag = UNKNOWN_BYTE, percent = UNKNOWN_BYTE, statusFlag = 0] = buffer
  const hasBattery = flag !== UNKNOWN_BYTE && (flag & NO_BATTERY) === 0
  return {
    source: ac === 1 ? 'ac' : ac === 0 ? 'battery' : 'unknown',
    batteryPercent: hasBattery && percent <= 100 ? percent : null,
    charging: flag === UNKNOWN_BYTE ? null : hasBattery ? (flag & BATTERY_CHARGING) !== 0 : false,
    // Battery saver; Windows 11 24H2's Energy Saver leaves this 0 (it needs GUID_ENERGY_SAVER_STATUS).
    saver: statusFlag === 1,
  }
}
