import { describe, expect, it } from 'vitest'
import { decodeSystemPowerStatus, SYSTEM_POWER_STATUS_SIZE } from './system-power-parsing'

/** The 12 bytes GetSystemPowerStatus writes. */
function status(ac: number, flag: number, percent: number, saver: number): Buffer {
  const b = Buffer.alloc(SYSTEM_POWER_STATUS_SIZE)
  b.writeUInt8(ac, 0)
  b.writeUInt8(flag, 1)
  b.writeUInt8(percent, 2)
  b.writeUInt8(saver, 3)
  b.writeUInt32LE(0xffffffff, 4) // BatteryLifeTime unknown
  b.writeUInt32LE(0xffffffff, 8)
  return b
}

describe('SYSTEM_POWER_STATUS decoding', () => {
  it('reads AC or battery, the charge, charging and battery saver', () => {
    expect(decodeSystemPowerStatus(status(1, 8 | 1, 93, 0))).toEqual({ source: 'ac', batteryPercent: 93, charging: true, saver: false })
    expect(decodeSystemPowerStatus(status(0, 2, 18, 1))).toEqual({ source: 'battery', batteryPercent: 18, charging: false, saver: true })
  })

  it('turns the unknown values (255) and "no system battery" (128) into null or unknown', () => {
    expect(decodeSystemPowerStatus(status(255, 255, 255, 0))).toEqual({
      source: 'unknown',
      batteryPercent: null,
      charging: null,
      saver: false,
    })
    expect(decodeSystemPowerStatus(status(1, 128, 255, 0))).toEqual({ source: 'ac', batteryPercent: null, charging: false, saver: false })
  })
})
