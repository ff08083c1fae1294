import { loadKoffi, type Koffi } from '../koffi'

/** QUERY_USER_NOTIFICATION_STATE (shellapi.h): 3 is QUNS_RUNNING_D3D_FULL_SCREEN. */
const QUNS_RUNNING_D3D_FULL_SCREEN = 3
const S_OK = 0

/** Whether a QUERY_USER_NOTIFICATION_STATE says an exclusive full-screen Direct3D app runs. */
export function isFullScreenD3d(state: number): boolean {
  return state === QUNS_RUNNING_D3D_FULL_SCREEN
}

type Query = (state: [number | null]) => number

/**
 * SHQueryUserNotificationState (shell32): a hint only. On Optimus laptops exclusive full screen has come back as
 * QUNS_BUSY, borderless games never say D3D, and it settles ~5 s late; Wine always answers QUNS_ACCEPTS_NOTIFICATIONS.
 * The game watch uses it to act on a busy GPU process at once instead of after the hold time, never alone.
 */
export class WindowsNotificationState {
  private constructor(private readonly query: Query) {}

  static open(loadKoffiFn: () => Koffi | string = loadKoffi): WindowsNotificationState | string {
    const koffi = loadKoffiFn()
    if (typeof koffi === 'string') return koffi
    try {
      const query = koffi.load('shell32.dll').func('long __stdcall SHQueryUserNotificationState(_Out_ int *state)') as Query
      return new WindowsNotificationState(query)
    } catch (err) {
      return `SHQueryUserNotificationState is not available: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`
    }
  }

  /** True while the shell says a full-screen Direct3D app runs; null when it does not answer. */
  read(): boolean | null {
    const state: [number | null] = [null]
    try {
      return this.query(state) === S_OK && state[0] !== null ? isFullScreenD3d(state[0]) : null
    } catch {
      return null
    }
  }
}
