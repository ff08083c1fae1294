import { BrowserWindow, screen, type BrowserWindowConstructorOptions, type Rectangle, type WebContents } from 'electron'
import { PRODUCT_NAME } from './app-identity'
import { secureWebPreferences } from './dashboard-window'
import { popoverPosition } from './popover-position'

/** The popover page's size (renderer/popover.html is laid out for it: nothing scrolls). */
export const POPOVER_SIZE = { width: 360, height: 520 } as const
/** The popover's own page, beside the dashboard's index.html. */
export const POPOVER_PAGE = 'popover.html'

/** The popover page's URL from the dashboard's entry URL (app://dashboard/index.html, or the dev server's root). */
export function popoverUrl(dashboardEntry: string): string {
  return new URL(POPOVER_PAGE, dashboardEntry).href
}
/** A click on the tray icon first blurs (hides) an open popover: the click that follows must not reopen it. */
const REOPEN_AFTER_BLUR_MS = 300

export function popoverWindowOptions(preload: string, packaged: boolean): BrowserWindowConstructorOptions {
  return {
    width: POPOVER_SIZE.width,
    height: POPOVER_SIZE.height,
    show: false,
    frame: false,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    title: PRODUCT_NAME,
    backgroundColor: '#15181c',
    webPreferences: secureWebPreferences(preload, packaged),
  }
}

export interface TrayPopoverOptions {
  readonly preload: string
  /** The dashboard's entry URL (the popover's page is found beside it). */
  readonly url: string
  readonly packaged: boolean
  /** Called with the window's contents before it loads (the IPC sender allow-list). */
  readonly onCreated: (contents: WebContents) => void
  readonly onVisibility: (visible: boolean) => void
  readonly onLoadFailed?: (message: string) => void
  readonly now?: () => number
}

/**
 * The small window a left click on the tray icon opens on Windows: the popover
 * page (state, tok/s, VRAM, the one warning, the profiles, Start/Stop), next to
 * the icon, hidden when it loses focus.
 */
export class TrayPopover {
  private window: BrowserWindow | null = null
  private hiddenByBlurAt = Number.NEGATIVE_INFINITY
  private readonly now: () => number

  constructor(private readonly options: TrayPopoverOptions) {
    this.now = options.now ?? Date.now
  }

  get webContents(): WebContents | null {
    const win = this.browserWindow
    return win && !win.webContents.isDestroyed() ? win.webContents : null
  }

  private get browserWindow(): BrowserWindow | null {
    return this.window && !this.window.isDestroyed() ? this.window : null
  }

  isVisible(): boolean {
    return this.browserWindow?.isVisible() ?? false
  }

  /** Opens it next to the tray icon at `trayBounds`, or closes it when open. */
  toggle(trayBounds: Rectangle): void {
    if (this.isVisible()) return this.hide()
    if (this.now() - this.hiddenByBlurAt < REOPEN_AFTER_BLUR_MS) return
    const win = this.browserWindow ?? this.create()
    const { workArea } = screen.getDisplayNearestPoint({
      x: Math.round(trayBounds.x + trayBounds.width / 2),
      y: Math.round(trayBounds.y + trayBounds.height / 2),
    })
    win.setBounds({ ...popoverPosition(trayBounds, POPOVER_SIZE, workArea), ...POPOVER_SIZE })
    win.show()
    win.focus()
  }

  hide(): void {
    this.browserWindow?.hide()
  }

  private create(): BrowserWindow {
    const win = new BrowserWindow(popoverWindowOptions(this.options.preload, this.options.packaged))
    this.window = win
    this.options.onCreated(win.webContents)
    win.on('blur', () => {
      if (!win.isVisible()) return
      this.hiddenByBlurAt = this.now()
      win.hide()
    })
    win.on('show', () => this.options.onVisibility(true))
    win.on('hide', () => this.options.onVisibility(false))
    win.on('closed', () => {
      if (this.window === win) this.window = null
      this.options.onVisibility(false)
    })
    win.webContents.on('did-fail-load', (_event, code, description, url) =>
      this.options.onLoadFailed?.(`tray popover failed to load ${url}: ${description} (${code})`),
    )
    void win
      .loadURL(popoverUrl(this.options.url))
      .catch((err: Error) => this.options.onLoadFailed?.(`tray popover failed to load: ${err.message}`))
    return win
  }
}
