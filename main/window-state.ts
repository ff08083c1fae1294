import { join } from 'node:path'
import { z } from 'zod'
import { versionedCodec } from '../app/lib/json-store/json-codec'
import type { JsonStore } from '../app/lib/json-store/json-store'
import { openJsonStore } from '../app/lib/json-store/registry'

export const WINDOW_STATE_FILE = 'window-state.json'

export interface WindowState {
  readonly x: number | null
  readonly y: number | null
  readonly width: number
  readonly height: number
  readonly maximized: boolean
}

export interface Area {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export const DEFAULT_WINDOW_STATE: WindowState = { x: null, y: null, width: 1100, height: 760, maximized: false }

const coordinate = z.number().int().min(-100_000).max(100_000)
// Version 1 is also the unversioned file of earlier releases (the codec reads a missing version as 1).
const WindowStateFileSchema = z.object({
  version: z.literal(1),
  x: coordinate.nullable(),
  y: coordinate.nullable(),
  width: z.number().int().min(480).max(20_000),
  height: z.number().int().min(360).max(20_000),
  maximized: z.boolean(),
})
type WindowStateFile = z.infer<typeof WindowStateFileSchema>

/** The one store of <home>/window-state.json in this process. */
export function openWindowStateStore(home: string): JsonStore<WindowStateFile> {
  return openJsonStore<WindowStateFile>({
    path: join(home, WINDOW_STATE_FILE),
    label: 'window state file',
    codec: versionedCodec({ schema: WindowStateFileSchema, version: 1 }),
    defaults: () => ({ version: 1, ...DEFAULT_WINDOW_STATE }),
  })
}

const stateOf = ({ x, y, width, height, maximized }: WindowStateFile): WindowState => ({ x, y, width, height, maximized })

/**
 * The saved state, or the defaults when there is none. A damaged file is set aside and its backup
 * used (the store's notices, passed to `onNotice`); an unreadable one gives the defaults with its
 * sentence: a window size is not worth stopping the app for.
 */
export async function loadWindowState(home: string, onNotice: (message: string) => void = () => undefined): Promise<WindowState> {
  const store = openWindowStateStore(home)
  try {
    const value = await store.load()
    for (const notice of store.notices) onNotice(notice)
    return stateOf(value)
  } catch (err) {
    onNotice((err as Error).message)
    return DEFAULT_WINDOW_STATE
  }
}

/**
 * Keeps the saved position only if the window's top strip (where it is dragged)
 * lands on a display that still exists; otherwise the OS centres it. The size
 * is clamped to the largest display, so a window from a 4K monitor fits a laptop.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Area[]): WindowState {
  if (workAreas.length === 0) return state
  const maxWidth = Math.max(...workAreas.map((a) => a.width))
  const maxHeight = Math.max(...workAreas.map((a) => a.height))
  const width = Math.min(state.width, maxWidth)
  const height = Math.min(state.height, maxHeight)
  if (state.x === null || state.y === null) return { ...state, width, height, x: null, y: null }
  const strip: Area = { x: state.x, y: state.y, width, height: 40 }
  const visible = workAreas.some((a) => overlap(strip, a) >= 40 * Math.min(100, width))
  return visible ? { ...state, width, height } : { ...state, width, height, x: null, y: null }
}

function overlap(a: Area, b: Area): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return w > 0 && h > 0 ? w * h : 0
}

/** Saves the state after moves and resizes settle (one write per burst), and on demand before quitting. */
export class WindowStateSaver {
  private pending: WindowState | null = null
  private timer: NodeJS.Timeout | null = null
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly home: string,
    private readonly delayMs = 500,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {}

  schedule(state: WindowState): void {
    this.pending = state
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.flush(), this.delayMs)
    this.timer.unref?.()
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const state = this.pending
    this.pending = null
    if (state) {
      const store = openWindowStateStore(this.home)
      this.writing = this.writing
        .then(() => store.update(() => ({ version: 1, ...stateOf({ version: 1, ...state }) })))
        .then(
          () => undefined,
          (err: Error) => this.onError(err),
        )
    }
    return this.writing
  }
}
