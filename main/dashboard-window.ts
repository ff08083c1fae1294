import { BrowserWindow, screen, type BrowserWindowConstructorOptions, type WebContents, type WebPreferences } from 'electron'
import { PRODUCT_NAME } from './app-identity'
import { fitToDisplays, type WindowState, type WindowStateSaver } from './window-state'

/**
 * The web preferences of every window main creates (the dashboard and the tray
 * popover). The security flags are spelled out even where they are Electron's
 * defaults, so a test can hold them.
 */
export function secureWebPreferences(preload: string, packaged: boolean): WebPreferences {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    disableBlinkFeatures: 'Auxclick',
    devTools: !packaged,
  }
}

export function dashboardWindowOptions(state: WindowState, preload: string, packaged: boolean): BrowserWindowConstructorOptions {
  return {
    ...(state.x !== null && state.y !== null ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 640,
    minHeight: 420,
    show: false,
    title: PRODUCT_NAME,
    backgroundColor: '#15181c',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload, packaged),
  }
}

export interface DashboardWindowOptions {
  readonly preload: string
  readonly url: string
  readonly packaged: boolean
  readonly initialState: WindowState
  readonly saver: WindowStateSaver
  /** Called with each new window's contents, before it loads (the IPC sender allow-list). */
  readonly onCreated: (contents: WebContents) => void
  /** Shown or hidden: the core polls telemetry only while the dashboard is visible or a server runs. */
  readonly onVisibility: (visible: boolean) => void
  /** True once the app is quitting: then closing really closes. */
  readonly isQuitting: () => boolean
  readonly onLoadFailed?: (message: string) => void
}

/**
 * The one dashboard window: created on first show, hidden (not destroyed) when
 * the user closes it, so reopening from the tray is instant and the app lives on
 * in the tray.
 */
export class DashboardWindow {
  private window: BrowserWindow | null = null
  private state: WindowState

  constructor(private readonly options: DashboardWindowOptions) {
    this.state = options.initialState
  }

  get webContents(): WebContents | null {
    const win = this.window
    return win && !win.isDestroyed() && !win.webContents.isDestroyed() ? win.webContents : null
  }

  get browserWindow(): BrowserWindow | null {
    return this.window && !this.window.isDestroyed() ? this.window : null
  }

  isVisible(): boolean {
    return this.browserWindow?.isVisible() ?? false
  }

  isFocused(): boolean {
    return this.browserWindow?.isFocused() ?? false
  }

  show(): void {
    const win = this.browserWindow ?? this.create()
    if (win.isMinimized()) win.restore()
    win.show()
    win.focus()
  }

  hide(): void {
    this.browserWindow?.hide()
  }

  private create(): BrowserWindow {
    const fitted = fitToDisplays(
      this.state,
      screen.getAllDisplays().map((d) => d.workArea),
    )
    const win = new BrowserWindow(dashboardWindowOptions(fitted, this.options.preload, this.options.packaged))
    this.window = win
    if (fitted.maximized) win.maximize()
    this.options.onCreated(win.webContents)

    win.on('close', (event) => {
      if (this.options.isQuitting()) return
      event.preventDefault()
      win.hide()
    })
    win.on('closed', () => {
      if (this.window === win) this.window = null
      this.options.onVisibility(false)
    })
    win.on('show', () => this.options.onVisibility(true))
    win.on('restore', () => this.options.onVisibility(true))
    win.on('hide', () => this.options.onVisibility(false))
    win.on('minimize', () => this.options.onVisibility(false))
    const remember = (): void => this.remember(win)
    win.on('resized', remember)
    win.on('moved', remember)
    win.on('maximize', remember)
    win.on('unmaximize', remember)
    win.webContents.on('did-fail-load', (_event, code, description, url) =>
      this.options.onLoadFailed?.(`dashboard failed to load ${url}: ${description} (${code})`),
    )
    void win.loadURL(this.options.url).catch((err: Error) => this.options.onLoadFailed?.(`dashboard failed to load: ${err.message}`))
    return win
  }

  private remember(win: BrowserWindow): void {
    if (win.isDestroyed() || win.isMinimized()) return
    const maximized = win.isMaximized()
    // While maximized, keep the last normal bounds so that un-maximizing next time restores them.
    const bounds = maximized ? { x: this.state.x, y: this.state.y, width: this.state.width, height: this.state.height } : win.getBounds()
    this.state = { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height, maximized }
    this.options.saver.schedule(this.state)
  }
}
