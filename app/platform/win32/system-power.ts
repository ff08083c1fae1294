import { UNKNOWN_POWER, type PowerStatus } from '../../contract/power'
import { loadKoffi } from '../koffi'
import type { PowerSourceReader } from '../power-source'
import { decodeSystemPowerStatus, SYSTEM_POWER_STATUS_SIZE } from './system-power-parsing'

type GetStatus = (status: Buffer) => boolean

function bind(): GetStatus | string {
  const koffi = loadKoffi()
  if (typeof koffi === 'string') return koffi
  try {
    return koffi.load('kernel32.dll').func('bool __stdcall GetSystemPowerStatus(_Out_ uint8_t *status)') as GetStatus
  } catch (err) {
    return `GetSystemPowerStatus unavailable: ${err instanceof Error ? err.message : String(err)}`
  }
}

/** Windows: GetSystemPowerStatus through koffi (one cheap kernel query; Wine implements it for real). */
export class WindowsSystemPower implements PowerSourceReader {
  private readonly get: GetStatus | string = bind()
  private readonly buffer = Buffer.alloc(SYSTEM_POWER_STATUS_SIZE)

  /** Why the reader cannot work on this machine; null when it can. */
  get problem(): string | null {
    return typeof this.get === 'string' ? this.get : null
  }

  read(): PowerStatus {
    if (typeof this.get === 'string' || !this.get(this.buffer)) return UNKNOWN_POWER
    return decodeSystemPowerStatus(this.buffer)
  }
}
