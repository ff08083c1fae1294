import { loadKoffi, type Koffi } from '../koffi'

/** EFFECTIVE_POWER_MODE (powersetting.h): BatterySaver 0, BetterBattery 1, Balanced 2, HighPerformance 3, MaxPerformance 4, GameMode 5, MixedReality 6. */
const EFFECTIVE_POWER_MODE_GAME_MODE = 5
/** EFFECTIVE_POWER_MODE_V2: the version that reports GameMode and MixedReality (V1 never does). */
const EFFECTIVE_POWER_MODE_V2 = 2
const S_OK = 0

/** Whether an effective power mode is Game Mode. */
export function isGameMode(mode: number): boolean {
  return mode === EFFECTIVE_POWER_MODE_GAME_MODE
}

type Register = (version: number, callback: bigint, context: null, handle: [unknown]) => number
type Unregister = (handle: unknown) => number

/**
 * Windows' effective power mode through PowerRegisterForEffectivePowerModeNotifications (powrprof.dll; Windows 10
 * 1809+): its callback fires once at registration and at each change, on an OS thread (koffi queues it to ours).
 * read() is the last mode said: true while Game Mode is on, null before the first call. Unregister before the
 * process exits (close): a callback into a gone isolate crashes it (Koromix/koffi#271). Wine has no such call: open()
 * returns the reason there. Checked by hand: docs/windows-manual-checklist.md.
 */
export class WindowsGameMode {
  private mode: number | null = null
  private closed = false

  private constructor(
    private readonly koffi: Koffi,
    private readonly unregister: Unregister,
    private readonly callback: bigint,
    private readonly handle: unknown,
    holder: { target: WindowsGameMode | null },
  ) {
    holder.target = this
  }

  static open(loadKoffiFn: () => Koffi | string = loadKoffi): WindowsGameMode | string {
    const koffi = loadKoffiFn()
    if (typeof koffi === 'string') return koffi
    let register: Register
    let unregister: Unregister
    let proto: ReturnType<Koffi['proto']>
    try {
      const lib = koffi.load('powrprof.dll')
      proto = koffi.proto('void __stdcall EffectivePowerModeCallback(int mode, void *context)')
      register = lib.func(
        'long __stdcall PowerRegisterForEffectivePowerModeNotifications(uint32_t version, void *callback, void *context, _Out_ void **handle)',
      ) as Register
      unregister = lib.func('long __stdcall PowerUnregisterFromEffectivePowerModeNotifications(void *handle)') as Unregister
    } catch (err) {
      return `the effective power mode is not available: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`
    }
    const holder: { target: WindowsGameMode | null; early: number | null } = { target: null, early: null }
    const callback = koffi.register((mode: number) => {
      if (holder.target) holder.target.mode = mode
      else holder.early = mode // the call at registration may come before the object exists
    }, koffi.pointer(proto))
    const handle: [unknown] = [null]
    const code = register(EFFECTIVE_POWER_MODE_V2, callback, null, handle)
    if (code !== S_OK || handle[0] === null) {
      koffi.unregister(callback)
      return `PowerRegisterForEffectivePowerModeNotifications failed (0x${(code >>> 0).toString(16)})`
    }
    const watch = new WindowsGameMode(koffi, unregister, callback, handle[0], holder)
    watch.mode = holder.early
    return watch
  }

  /** True while Game Mode is on; null before Windows said the mode. */
  read(): boolean | null {
    return this.mode === null ? null : isGameMode(this.mode)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.unregister(this.handle)
    this.koffi.unregister(this.callback)
  }
}
