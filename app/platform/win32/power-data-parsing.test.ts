import { describe, expect, it } from 'vitest'
import {
  CM_POWER_DATA_SIZE,
  devpkeyPowerData,
  mostRecentPowerState,
  nvidiaDeviceIds,
  splitMultiSz,
  windowsPowerState,
} from './power-data-parsing'

/** A CM_POWER_DATA as CM_Get_DevNode_PropertyW fills it (PD_Size first, then PD_MostRecentPowerState). */
function powerData(state: number): Buffer {
  const b = Buffer.alloc(CM_POWER_DATA_SIZE)
  b.writeUInt32LE(CM_POWER_DATA_SIZE, 0)
  b.writeUInt32LE(state, 4)
  b.writeUInt32LE(0x0000000f, 8) // capabilities
  for (let i = 0; i < 7; i++) b.writeUInt32LE(i === 1 ? 1 : 4, 24 + i * 4) // PowerStateMapping: S0 → D0, the rest D3
  b.writeUInt32LE(4, 52)
  return b
}

describe('DEVPKEY_Device_PowerData decoding', () => {
  it('reads PD_MostRecentPowerState: D0 is awake, D3 (hot or cold) asleep, unspecified unknown', () => {
    expect(mostRecentPowerState(powerData(1))).toBe('D0')
    expect(windowsPowerState(powerData(1))).toEqual({ kind: 'awake', detail: 'D0' })
    expect(windowsPowerState(powerData(4))).toEqual({ kind: 'asleep', detail: 'D3' })
    expect(windowsPowerState(powerData(2)).kind).toBe('asleep')
    expect(windowsPowerState(powerData(0)).kind).toBe('unknown')
    expect(windowsPowerState(powerData(9)).kind).toBe('unknown')
    expect(windowsPowerState(Buffer.alloc(4)).kind).toBe('unknown')
  })

  it('builds the DEVPROPKEY {a45c254e-df1c-4efd-8020-67d146a850e0} 32 in memory order', () => {
    expect(devpkeyPowerData().toString('hex')).toBe('4e255ca41cdffd4e802067d146a850e020000000')
  })

  it('splits the device id list and keeps the NVIDIA adapters', () => {
    const ids = [
      'PCI\\VEN_8086&DEV_A7A0&SUBSYS_0B151028&REV_04\\3&11583659&0&10',
      'PCI\\VEN_10DE&DEV_28A0&SUBSYS_0B151028&REV_A1\\4&1d0b&0&0008',
    ]
    const list = Buffer.from(`${ids.join('\0')}\0\0`, 'utf16le')
    expect(splitMultiSz(list)).toEqual(ids)
    expect(nvidiaDeviceIds(splitMultiSz(list))).toEqual([ids[1]])
  })
})
