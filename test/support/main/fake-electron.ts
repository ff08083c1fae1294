import { EventEmitter } from 'node:events'

/**
 * A stand-in for the parts of 'electron' main/ uses, for vitest's
 * vi.mock('electron', …): it records what main asks of Electron and lets a
 * test emit the events Electron would. Electron's binary is not available here.
 */

export interface FakeEvent {
  defaultPrevented: boolean
  preventDefault(): void
}

export function fakeEvent(): FakeEvent {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    },
  }
}

let nextContentsId = 1

export class FakeFrame {
  constructor(
    public url: string,
    public parent: FakeFrame | null = null,
  ) {}
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++
  readonly sent: { channel: string; args: unknown[] }[] = []
  destroyed = false
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null
  readonly mainFrame: FakeFrame
  constructor(url = 'app://dashboard/index.html') {
    super()
    this.mainFrame = new FakeFrame(url)
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args })
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  destroy(): void {
    this.destroyed = true
    this.emit('destroyed')
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }
  closeDevTools(): void {
    this.emit('devtools-closed')
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = []
  readonly webContents = new FakeWebContents()
  visible = false
  focused = false
  minimized = false
  maximized = false
  destroyed = false
  loadedUrl: string | null = null
  bounds = { x: 10, y: 20, width: 1000, height: 700 }
  constructor(readonly options: Record<string, unknown>) {
    super()
    FakeBrowserWindow.instances.push(this)
  }
  show(): void {
    if (!this.visible) {
      this.visible = true
      this.emit('show')
    }
  }
  hide(): void {
    if (this.visible) {
      this.visible = false
      this.focused = false
      this.emit('hide')
    }
  }
  focus(): void {
    this.focused = true
  }
  isVisible(): boolean {
    return this.visible
  }
  isFocused(): boolean {
    return this.focused
  }
  isMinimized(): boolean {
    return this.minimized
  }
  restore(): void {
    this.minimized = false
    this.emit('restore')
  }
  maximize(): void {
    this.maximized = true
  }
  isMaximized(): boolean {
    return this.maximized
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  getBounds(): { x: number; y: number; width: number; height: number } {
    return this.bounds
  }
  setBounds(bounds: Partial<{ x: number; y: number; width: number; height: number }>): void {
    this.bounds = { ...this.bounds, ...bounds }
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url
  }
  /** What focus moving elsewhere does. */
  blur(): void {
    this.focused = false
    this.emit('blur')
  }
  /** What the user's click on the close button does: 'close', then (unless prevented) destroy. */
  userClose(): FakeEvent {
    const event = fakeEvent()
    this.emit('close', event)
    if (!event.defaultPrevented) {
      this.destroyed = true
      this.visible = false
      this.emit('closed')
    }
    return event
  }
}

export class FakeTray extends EventEmitter {
  static instances: FakeTray[] = []
  readonly images: unknown[] = []
  readonly tooltips: string[] = []
  readonly menus: { template: unknown[] }[] = []
  readonly balloons: { title: string; content: string; iconType?: string }[] = []
  bounds = { x: 1800, y: 1048, width: 24, height: 32 }
  destroyed = false
  constructor(readonly image: unknown) {
    super()
    FakeTray.instances.push(this)
  }
  setImage(image: unknown): void {
    this.images.push(image)
  }
  setToolTip(text: string): void {
    this.tooltips.push(text)
  }
  setContextMenu(menu: { template: unknown[] }): void {
    this.menus.push(menu)
  }
  displayBalloon(options: { title: string; content: string; iconType?: string }): void {
    this.balloons.push(options)
  }
  getBounds(): { x: number; y: number; width: number; height: number } {
    return this.bounds
  }
  destroy(): void {
    this.destroyed = true
  }
}

export class FakeNotification extends EventEmitter {
  static instances: FakeNotification[] = []
  static supported = true
  shown = false
  constructor(readonly options: { title: string; body: string }) {
    super()
    FakeNotification.instances.push(this)
  }
  static isSupported(): boolean {
    return FakeNotification.supported
  }
  show(): void {
    this.shown = true
  }
}

export interface FakeImage {
  readonly path: string | null
  readonly representations: { scaleFactor: number }[]
  isEmpty(): boolean
  toPNG(): Buffer
  addRepresentation(rep: { scaleFactor: number }): void
}

function fakeImage(path: string | null): FakeImage {
  const representations: { scaleFactor: number }[] = []
  return {
    path,
    representations,
    isEmpty: () => path === null && representations.length === 0,
    toPNG: () => Buffer.from(path ?? ''),
    addRepresentation: (rep) => void representations.push(rep),
  }
}

class FakeApp extends EventEmitter {
  paths = new Map<string, string>()
  lock = true
  isPackaged = false
  appPath = '/fake/app'
  readonly calls: string[] = []
  loginItems: unknown[] = []
  private readyResolve: (() => void) | null = null
  private readyPromise: Promise<void> = Promise.resolve()

  setPath(name: string, value: string): void {
    this.paths.set(name, value)
  }
  getPath(name: string): string {
    return this.paths.get(name) ?? `/fake/${name}`
  }
  getAppPath(): string {
    return this.appPath
  }
  requestSingleInstanceLock(): boolean {
    this.calls.push('requestSingleInstanceLock')
    return this.lock
  }
  disableHardwareAcceleration(): void {
    this.calls.push('disableHardwareAcceleration')
  }
  setAppUserModelId(id: string): void {
    this.calls.push(`setAppUserModelId:${id}`)
  }
  setAppLogsPath(path: string): void {
    this.paths.set('logs', path)
  }
  setLoginItemSettings(settings: unknown): void {
    this.loginItems.push(settings)
  }
  /** Like Electron: 'before-quit' first; only an unprevented quit goes on. */
  quit(): void {
    this.calls.push('quit')
    const event = fakeEvent()
    this.emit('before-quit', event)
    if (!event.defaultPrevented) this.calls.push('quit:proceeded')
  }
  exit(code = 0): void {
    this.calls.push(`exit:${code}`)
  }
  /** Holds 'ready' until releaseReady() (for tests of what happens before it). */
  holdReady(): void {
    this.readyPromise = new Promise((resolve) => (this.readyResolve = resolve))
  }
  releaseReady(): void {
    this.readyResolve?.()
  }
  whenReady(): Promise<void> {
    return this.readyPromise
  }
}

class FakeIpcMain {
  readonly handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>()
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.handlers.set(channel, handler)
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel)
  }
  /** Calls a channel as Electron would for a message from `sender`'s `frame`. */
  async invoke(channel: string, sender: FakeWebContents, frame: FakeFrame | null, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel)
    if (!handler) throw new Error(`No handler registered for '${channel}'`)
    return handler({ sender, senderFrame: frame }, ...args)
  }
}

class FakeSession {
  permissionRequestHandler:
    ((contents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void) | null = null
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null = null
  readonly protocolHandlers = new Map<string, (request: Request) => Promise<Response>>()
  readonly protocol = {
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) => void this.protocolHandlers.set(scheme, handler),
  }
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler
  }
}

/** powerMonitor: the test unplugs (emit 'on-battery') and plugs in; `onBattery` is what isOnBatteryPower() says. */
export class FakePowerMonitor extends EventEmitter {
  onBattery = false
  isOnBatteryPower(): boolean {
    return this.onBattery
  }
}

export const fake = {
  app: new FakeApp(),
  powerMonitor: new FakePowerMonitor(),
  ipcMain: new FakeIpcMain(),
  session: { defaultSession: new FakeSession() },
  privilegedSchemes: [] as unknown[],
  openedExternal: [] as string[],
  openedPaths: [] as string[],
  dialogResult: { canceled: true, filePaths: [] as string[] },
  errorBoxes: [] as string[],
  displays: [{ bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }],
  /** Each Menu.setApplicationMenu call, with how many windows existed then. */
  applicationMenus: [] as { menu: unknown; windowsBefore: number }[],
}

/** A fresh fake for each test (the module object stays the same, its state is replaced). */
export function resetFakeElectron(): void {
  fake.app = new FakeApp()
  fake.powerMonitor = new FakePowerMonitor()
  fake.ipcMain = new FakeIpcMain()
  fake.session = { defaultSession: new FakeSession() }
  fake.privilegedSchemes = []
  fake.openedExternal = []
  fake.openedPaths = []
  fake.dialogResult = { canceled: true, filePaths: [] }
  fake.errorBoxes = []
  fake.applicationMenus = []
  FakeBrowserWindow.instances = []
  FakeTray.instances = []
  FakeNotification.instances = []
  FakeNotification.supported = true
}

/** The module vi.mock('electron') returns: getters, so resetFakeElectron() takes effect everywhere. */
export function fakeElectronModule(): Record<string, unknown> {
  return {
    get app() {
      return fake.app
    },
    get ipcMain() {
      return fake.ipcMain
    },
    get powerMonitor() {
      return fake.powerMonitor
    },
    get session() {
      return fake.session
    },
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (menu: unknown) => void fake.applicationMenus.push({ menu, windowsBefore: FakeBrowserWindow.instances.length }),
    },
    nativeImage: { createFromPath: (path: string) => fakeImage(path), createEmpty: () => fakeImage(null) },
    screen: {
      getAllDisplays: () => fake.displays,
      getDisplayNearestPoint: (point: { x: number; y: number }) =>
        fake.displays.find(
          (d) =>
            point.x >= d.bounds.x &&
            point.x < d.bounds.x + d.bounds.width &&
            point.y >= d.bounds.y &&
            point.y < d.bounds.y + d.bounds.height,
        ) ?? fake.displays[0],
    },
    protocol: { registerSchemesAsPrivileged: (schemes: unknown[]) => void fake.privilegedSchemes.push(...schemes) },
    shell: {
      openExternal: async (url: string) => void fake.openedExternal.push(url),
      openPath: async (path: string) => {
        fake.openedPaths.push(path)
        return ''
      },
    },
    dialog: {
      showOpenDialog: async () => fake.dialogResult,
      showErrorBox: (title: string, content: string) => void fake.errorBoxes.push(`${title}: ${content}`),
    },
  }
}

/** The electron-log/main stand-in: records lines instead of writing files. */
export const fakeLogLines: string[] = []
export const fakeLogger = {
  transports: {
    file: { resolvePathFn: null as (() => string) | null, maxSize: 0, level: 'info' as string | false },
    console: { level: 'debug' as string | false },
  },
}
export function fakeElectronLogModule(): Record<string, unknown> {
  const logger = {
    transports: fakeLogger.transports,
    errorHandler: { startCatching: () => undefined },
    info: (m: string) => void fakeLogLines.push(`info ${m}`),
    warn: (m: string) => void fakeLogLines.push(`warn ${m}`),
    error: (m: string) => void fakeLogLines.push(`error ${m}`),
  }
  return { default: logger, ...logger }
}
