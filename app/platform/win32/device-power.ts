import { loadKoffi } from '../koffi'
import { combineGpuPower, UNKNOWN_GPU_POWER, type DevicePowerSource, type GpuPowerState } from '../device-power'
import {
  CM_POWER_DATA_SIZE,
  DISPLAY_CLASS_GUID,
  devpkeyPowerData,
  nvidiaDeviceIds,
  splitMultiSz,
  windowsPowerState,
} from './power-data-parsing'

const CR_SUCCESS = 0
const CM_GETIDLIST_FILTER_PRESENT = 0x100
const CM_GETIDLIST_FILTER_CLASS = 0x200

type Fn<A extends unknown[], R> = (...args: A) => R

interface CfgMgr32 {
  listSize: Fn<[[number], string, number], number>
  list: Fn<[string, Buffer, number, number], number>
  locate: Fn<[[number], string, number], number>
  property: Fn<[number, Buffer, [number], Buffer, [number], number], number>
}

function bind(): CfgMgr32 | string {
  const koffi = loadKoffi()
  if (typeof koffi === 'string') return koffi
  try {
    const c = koffi.load('cfgmgr32.dll')
    return {
      listSize: c.func(
        'uint32_t __stdcall CM_Get_Device_ID_List_SizeW(_Out_ uint32_t *length, const char16_t *filter, uint32_t flags)',
      ) as CfgMgr32['listSize'],
      list: c.func(
        'uint32_t __stdcall CM_Get_Device_ID_ListW(const char16_t *filter, _Out_ uint8_t *buffer, uint32_t length, uint32_t flags)',
      ) as CfgMgr32['list'],
      locate: c.func(
        'uint32_t __stdcall CM_Locate_DevNodeW(_Out_ uint32_t *devinst, const char16_t *id, uint32_t flags)',
      ) as CfgMgr32['locate'],
      property: c.func(
        'uint32_t __stdcall CM_Get_DevNode_PropertyW(uint32_t devinst, const uint8_t *key, _Out_ uint32_t *type, _Out_ uint8_t *buffer, ' +
          '_Inout_ uint32_t *size, uint32_t flags)',
      ) as CfgMgr32['property'],
    }
  } catch (err) {
    return `cfgmgr32 functions unavailable: ${err instanceof Error ? err.message : String(err)}`
  }
}

/**
 * Windows: the NVIDIA display adapters' DEVPKEY_Device_PowerData through CfgMgr32 (Plug and Play's bookkeeping:
 * reading it does not wake the GPU, unlike NVML). The device list is taken once; a GPU added later is seen after a
 * restart. Checked by hand on Windows (docs/windows-manual-checklist.md); the structs are decoded in tests.
 */
export class WindowsDevicePower implements DevicePowerSource {
  private readonly c: CfgMgr32 | string = bind()
  private readonly key = devpkeyPowerData()
  private ids: string[] | null = null

  /** Why the source cannot work on this machine; null when it can. */
  get problem(): string | null {
    return typeof this.c === 'string' ? this.c : null
  }

  read(): GpuPowerState {
    const c = this.c
    if (typeof c === 'string') return UNKNOWN_GPU_POWER
    this.ids ??= this.nvidiaIds(c)
    if (this.ids.length === 0) return UNKNOWN_GPU_POWER
    return combineGpuPower(this.ids.map((id) => this.stateOf(c, id)))
  }

  private nvidiaIds(c: CfgMgr32): string[] {
    const flags = CM_GETIDLIST_FILTER_CLASS | CM_GETIDLIST_FILTER_PRESENT
    const length: [number] = [0]
    if (c.listSize(length, DISPLAY_CLASS_GUID, flags) !== CR_SUCCESS || length[0] <= 0) return []
    const buffer = Buffer.alloc(length[0] * 2)
    if (c.list(DISPLAY_CLASS_GUID, buffer, length[0], flags) !== CR_SUCCESS) return []
    return nvidiaDeviceIds(splitMultiSz(buffer))
  }

  private stateOf(c: CfgMgr32, id: string): GpuPowerState {
    const devinst: [number] = [0]
    if (c.locate(devinst, id, 0) !== CR_SUCCESS) return UNKNOWN_GPU_POWER
    const buffer = Buffer.alloc(CM_POWER_DATA_SIZE)
    const size: [number] = [buffer.length]
    const type: [number] = [0]
    if (c.property(devinst[0], this.key, type, buffer, size, 0) !== CR_SUCCESS) return UNKNOWN_GPU_POWER
    return windowsPowerState(buffer.subarray(0, size[0]))
  }
}
