import type { GpuPowerState } from '../device-power'

/** CM_POWER_DATA: PD_Size, PD_MostRecentPowerState, Capabilities, three latencies, PowerStateMapping[7], DeepestSystemWake. */
export const CM_POWER_DATA_SIZE = 56
/** DEVICE_POWER_STATE: PowerDeviceUnspecified 0, D0 1 … D3 4. */
const DEVICE_POWER_NAMES = ['unspecified', 'D0', 'D1', 'D2', 'D3'] as const

/** The display adapters' setup class, {4d36e968-e325-11ce-bfc1-08002be10318}: CM_Get_Device_ID_List's class filter. */
export const DISPLAY_CLASS_GUID = '{4d36e968-e325-11ce-bfc1-08002be10318}'

/**
 * DEVPKEY_Device_PowerData, {a45c254e-df1c-4efd-8020-67d146a850e0} 32, as the 20 bytes of a DEVPROPKEY
 * (a GUID in its in-memory order, then the property id).
 */
export function devpkeyPowerData(): Buffer {
  const key = Buffer.alloc(20)
  key.writeUInt32LE(0xa45c254e, 0)
  key.writeUInt16LE(0xdf1c, 4)
  key.writeUInt16LE(0x4efd, 6)
  Buffer.from([0x80, 0x20, 0x67, 0xd1, 0x46, 0xa8, 0x50, 0xe0]).copy(key, 8)
  key.writeUInt32LE(32, 16)
  return key
}

/** PD_MostRecentPowerState of a CM_POWER_DATA as Plug and Play filled it; null for a buffer too short or out of range. */
export function mostRecentPowerState(buffer: Uint8Array): (typeof DEVICE_POWER_NAMES)[number] | null {
  if (buffer.byteLength < 8) return null
  const state = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength).readUInt32LE(4)
  return DEVICE_POWER_NAMES[state] ?? null
}

/** The device's state from its CM_POWER_DATA: D1–D3 sleep (Windows does not tell D3hot from D3cold here). */
export function windowsPowerState(buffer: Uint8Array): GpuPowerState {
  const state = mostRecentPowerState(buffer)
  if (state === null || state === 'unspecified') return { kind: 'unknown', detail: state }
  return { kind: state === 'D0' ? 'awake' : 'asleep', detail: state }
}

/** A REG_MULTI_SZ-style list (UTF-16, each string ended by a NUL, an empty one last) as strings. */
export function splitMultiSz(buffer: Uint8Array): string[] {
  return Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    .toString('utf16le')
    .split('\0')
    .filter((s) => s.length > 0)
}

/** The NVIDIA display devices among device instance ids (PCI\VEN_10DE&DEV_…). */
export function nvidiaDeviceIds(ids: readonly string[]): string[] {
  return ids.filter((id) => /^PCI\\VEN_10DE&/i.test(id))
}
