import { app, dialog, Menu, powerMonitor, session, shell, Tray, type OpenDialogOptions, type SaveDialogOptions } from 'electron'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { CommandChannels, EventChannels, EventName } from '../app/contract/commands'
import type { ProfileFileRole } from '../app/contract/profile'
import type { AppSettings } from '../app/contract/settings'
import type { PowerNoticeKind } from '../app/contract/snapshot'
import { resolveHome, resolveLocalDataDir } from '../app/home'
import { HomeInUseError, type HeldHome } from '../app/core/home-lock'
import { APP_ID, HIDDEN_ARG, isPortableBuild } from './app-identity'
import { setupAppLog, type AppLog } from './app-log'
import { registerAppScheme, serveDashboard } from './app-protocol'
import { AttentionTracker, type Notice } from './attention'
import { readBootSettings } from './boot-settings'
import { DashboardWindow } from './dashboard-window'
import { dashboardEntryUrl, isDashboardUrl } from './dashboard-url'
import { DashboardSenders, forwardEvents, registerCommandHandlers } from './ipc-main'
import { IPC_ARGS } from './ipc-schemas'
import { applyLoginItem } from './login-item'
import { ElectronPower } from './power-monitor'
import { platformPowerSource } from '../app/platform/power-source-platform'
import type { PowerEvents } from '../app/platform/power-source'
import { Notifier } from './notifier'
import { TrayController } from './tray-controller'
import { TrayPopover } from './tray-popover'
import { loadTrayIcon } from './tray-icons'
import { profileName, type TrayView } from './tray-view'
import { trayActionsFor } from './tray-actions'
import { loadWindowState, WindowStateSaver } from './window-state'
import { hardenSession, guardWebContents } from './web-security'

/** The notification title of each kind of power notice (a game's has its own: it is not about power or sleep). */
const POWER_NOTICE_TITLES: Record<PowerNoticeKind, string> = {
  power: 'Power and sleep',
  resume: 'Power and sleep',
  game: 'Game on the GPU',
}

/** What the shell needs from the core (LlamaTrayCore has all of it). */
export interface ShellCore {
  readonly handlers: CommandChannels
  on<E extends EventName>(event: E, listener: EventChannels[E]): () => void
  dispose(): Promise<void>
  readonly settings: AppSettings
  readonly startupMessages: readonly string[]
}

export interface ShellCoreOptions {
  readonly home: string
  /** settings.json as read before 'ready' (the telemetry cadence, heavy apps). */
  readonly bootSettings: AppSettings
  readonly chooseFile: (role: ProfileFileRole, current: string) => Promise<string | null>
  readonly openPath: (path: string) => Promise<void>
  /** The save dialog for the diagnostics zip, in Downloads by default; null when cancelled. */
  readonly chooseSavePath: (defaultName: string) => Promise<string | null>
  readonly appVersion: () => string
  readonly log: AppLog
  /** Electron's powerMonitor as the core's power source (on-ac / on-battery; the onBattery setting follows it). */
  readonly power: PowerEvents
}

export interface ShellOptions {
  readonly argv: readonly string[]
  readonly env: NodeJS.ProcessEnv
  readonly platform: NodeJS.Platform
  /** The folder of the compiled main bundle (out/main): preload and renderer sit beside it. */
  readonly mainDir: string
  readonly createCore: (options: ShellCoreOptions) => Promise<ShellCore>
  /** How long quitting waits for the server to stop before exiting anyway (the next start reaps an orphan). */
  readonly quitTimeoutMs?: number
  /**
   * Takes the home's lock against a `serve` or `run` of the same home (another app instance is refused by Electron's
   * single-instance lock first); rejects with the holder's one sentence (HomeInUseError) when one runs.
   */
  readonly lockHome?: (home: string) => Promise<HeldHome>
}

export interface ShellHandle {
  /** False when another instance holds the lock (this one quits at once). */
  readonly primary: boolean
  /** Settles when the tray and IPC are up (or start-up failed). */
  readonly ready: Promise<void>
}

/**
 * The Electron app: one instance, a tray, a hidden-on-close dashboard window,
 * typed and validated IPC over the core, and a quit that stops llama-server
 * before the process exits.
 */
export function startShell(options: ShellOptions): ShellHandle {
  // One home for the app and the CLI (profiles, logs, pid files), honouring $LLAMA_TRAY_HOME.
  app.setPath('userData', resolveHome(undefined, options.env, options.platform))
  const home = app.getPath('userData')
  // Chromium's caches and the app's log are not the user's data: on Windows they go to
  // %LOCALAPPDATA% instead of the roaming home (profiles and settings stay where they are).
  const localDir = resolveLocalDataDir(options.env, options.platform)
  if (localDir) {
    app.setPath('sessionData', join(localDir, 'session'))
    app.setPath('crashDumps', join(localDir, 'crashes'))
    app.setAppLogsPath(join(localDir, 'logs'))
  }
  // Two instances would each supervise a llama-server and fight over the port.
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return { primary: false, ready: Promise.resolve() }
  }
  const boot = readBootSettings(home)
  // An 8 GB GPU cannot spare the 500+ MB a GPU-composited dashboard may hold (applies at start).
  if (!boot.hardwareAcceleration) app.disableHardwareAcceleration()
  if (options.platform === 'win32') app.setAppUserModelId(app.isPackaged ? APP_ID : process.execPath)
  // No default menu (Alt shows it; it has Reload and DevTools): set before 'ready', so Electron never builds one.
  // macOS routes Cmd+C/V/Q through the menu even when none shows: it gets a minimal one once ready.
  if (options.platform !== 'darwin') Menu.setApplicationMenu(null)
  registerAppScheme()
  const packaged = app.isPackaged
  // The portable exe has no Start Menu shortcut carrying APP_ID: Windows drops its toasts silently.
  const toasts = !(options.platform === 'win32' && packaged && isPortableBuild(options.env))
  const log = setupAppLog(localDir ? join(localDir, 'logs') : join(home, 'logs'), packaged)
  const devUrl = options.env.ELECTRON_RENDERER_URL
  const senders = new DashboardSenders((url) => isDashboardUrl(url, devUrl, packaged))
  const saver = new WindowStateSaver(home, 500, (err) => log.warn(`window state not saved: ${err.message}`))

  let quitting = false
  let exiting = false
  let showWhenReady = !options.argv.includes(HIDDEN_ARG)
  let core: Promise<ShellCore | null> = Promise.resolve(null)
  let homeLock: HeldHome | null = null
  let dashboard: DashboardWindow | null = null
  let tray: Tray | null = null // module lifetime: a collected Tray disappears from the taskbar

  app.on('second-instance', () => {
    if (dashboard) dashboard.show()
    else showWhenReady = true
  })
  // A tray app lives on with no window open.
  app.on('window-all-closed', () => undefined)
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, { packaged }))
  app.on('before-quit', (event) => {
    if (exiting) return
    event.preventDefault()
    if (quitting) return
    quitting = true
    log.info('quitting: stopping llama-server first')
    void shutdown().finally(() => {
      exiting = true
      app.exit(0)
    })
  })
  const quitOnSignal = (): void => app.quit()
  process.on('SIGINT', quitOnSignal)
  process.on('SIGTERM', quitOnSignal)

  async function shutdown(): Promise<void> {
    const running = await core.catch(() => null)
    await saver.flush()
    if (running) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), options.quitTimeoutMs ?? 15_000)))
      const result = await Promise.race([
        running.dispose().then(
          () => 'stopped' as const,
          (err: Error) => (log.error(`stopping the core failed: ${err.message}`), 'stopped' as const),
        ),
        timeout,
      ])
      clearTimeout(timer)
      if (result === 'timeout') log.error('llama-server did not stop in time; exiting anyway (the next start stops an orphan)')
    }
    tray?.destroy()
    tray = null
    await homeLock?.release()
  }

  async function onReady(): Promise<void> {
    if (quitting) return
    if (options.platform === 'darwin') Menu.setApplicationMenu(Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }]))
    const ses = session.defaultSession
    hardenSession(ses, { isOurs: (contents) => senders.has(contents), isDashboardUrl: (url) => isDashboardUrl(url, devUrl, packaged) })
    serveDashboard(ses, join(options.mainDir, '..', 'renderer'))
    const resources = join(app.getAppPath(), 'resources')
    // A serve or run of this home already supervises its servers: say who (pid, port) and quit before starting a core.
    if (options.lockHome) {
      try {
        homeLock = await options.lockHome(home)
      } catch (err) {
        if (!(err instanceof HomeInUseError)) throw err
        log.warn(`not started: ${err.message}`)
        dialog.showErrorBox('Llama Tray already runs on this home', err.message)
        app.quit()
        return
      }
      if (quitting) return void (await homeLock.release())
    }
    // Read beside the core's start; never rejects (a damaged file gives the defaults and a warning).
    const windowState = loadWindowState(home, (message) => log.warn(message))

    const created = options.createCore({
      home,
      bootSettings: boot,
      log,
      power: new ElectronPower(powerMonitor, platformPowerSource()),
      chooseFile: async (role, current) => {
        const dialogOptions = fileDialogOptions(role, current, options.platform)
        const parent = dashboard?.browserWindow
        const result = parent ? await dialog.showOpenDialog(parent, dialogOptions) : await dialog.showOpenDialog(dialogOptions)
        return result.canceled ? null : (result.filePaths[0] ?? null)
      },
      chooseSavePath: async (defaultName) => {
        const defaultPath = join(app.getPath('downloads'), defaultName)
        const dialogOptions: SaveDialogOptions = { defaultPath, filters: [{ name: 'Zip archive', extensions: ['zip'] }] }
        const parent = dashboard?.browserWindow
        const result = parent ? await dialog.showSaveDialog(parent, dialogOptions) : await dialog.showSaveDialog(dialogOptions)
        return result.canceled || !result.filePath ? null : result.filePath
      },
      appVersion: () => app.getVersion(),
      openPath: async (path) => {
        await mkdir(path, { recursive: true })
        const error = await shell.openPath(path)
        if (error) log.warn(`could not open ${path}: ${error}`)
      },
    })
    core = created
    const c = await created
    if (quitting) return

    // Telemetry polls while any window shows the dashboard. Main knows both windows' visibility, so the
    // pages' own reports are not passed on: the hidden popover's "false" would stop the dashboard's charts.
    // Main owns the windows: "Open dashboard" (the popover's button) is answered here, not by the core.
    const mainHandlers = { 'dashboard:visible': async () => undefined, 'dashboard:open': async () => openDashboard() }
    registerCommandHandlers({ ...c.handlers, ...mainHandlers }, IPC_ARGS, senders, log)
    const shown = { dashboard: false, popover: false }
    let reportedVisible: boolean | null = null
    const setShown = (which: keyof typeof shown, visible: boolean): void => {
      shown[which] = visible
      const any = shown.dashboard || shown.popover
      if (any === reportedVisible) return
      reportedVisible = any
      void c.handlers['dashboard:visible'](any)
    }
    const preload = join(options.mainDir, '..', 'preload', 'index.js')
    const url = dashboardEntryUrl(devUrl, packaged)
    const window = new DashboardWindow({
      preload,
      url,
      packaged,
      initialState: await windowState,
      saver,
      onCreated: (contents) => senders.trust(contents),
      onVisibility: (visible) => setShown('dashboard', visible),
      isQuitting: () => quitting,
      onLoadFailed: (message) => log.error(message),
    })
    dashboard = window
    forwardEvents(c, () => window.webContents)
    const popover = new TrayPopover({
      preload,
      url,
      packaged,
      onCreated: (contents) => senders.trust(contents),
      onVisibility: (visible) => setShown('popover', visible),
      onLoadFailed: (message) => log.error(message),
    })
    forwardEvents(c, () => popover.webContents)
    const openDashboard = (): void => {
      popover.hide()
      window.show()
    }

    let settings = c.settings
    const view: { -readonly [K in keyof TrayView]: TrayView[K] } = {
      status: await c.handlers['server:status'](),
      profiles: [],
      activeProfileId: null,
      tokensPerSecond: null,
      freeVramMiB: null,
      warnings: [],
    }
    const nameOf = (id: string | null): string => profileName(view, id) ?? 'llama-server'
    const notifier = new Notifier({
      enabled: () => settings.notifications,
      onClick: openDashboard,
      icon: join(resources, 'icon.png'),
      toasts,
      // The tray balloon needs no shortcut (Windows shows it as a toast of the tray icon).
      fallback: (notice) => {
        if (!tray || options.platform !== 'win32') return false
        tray.displayBalloon({ title: notice.title, content: notice.body, iconType: notice.urgent ? 'error' : 'info' })
        return true
      },
    })
    const attention = new AttentionTracker(nameOf)
    const announce = (notice: Notice | null): void => {
      if (!notice) return
      log.info(`notice: ${notice.title}: ${notice.body}`)
      notifier.show(notice)
    }
    const actions = trayActionsFor({
      handlers: c.handlers,
      openDashboard,
      quit: () => app.quit(),
      onStartFailed: (id, error) => {
        log.warn(`start ${id} failed: ${error}`)
        if (!notifier.show({ title: `Could not start ${nameOf(id)}`, body: error, urgent: true })) openDashboard()
      },
      onPinFailed: (id, pinned, error) => {
        log.warn(`${pinned ? 'pin' : 'unpin'} ${id} failed: ${error}`)
        const title = `Could not ${pinned ? 'pin' : 'unpin'} ${nameOf(id)}`
        if (!notifier.show({ title, body: error, urgent: true })) openDashboard()
      },
      onRestartFailed: (error) => {
        log.warn(`restart failed: ${error}`)
        if (!notifier.show({ title: `Could not restart ${nameOf(view.status.profileId)}`, body: error, urgent: true })) openDashboard()
      },
      log,
    })

    tray = new Tray(loadTrayIcon(join(resources, 'tray'), 'stopped', options.platform))
    const controller = new TrayController(tray, (state) => loadTrayIcon(join(resources, 'tray'), state, options.platform), actions)
    const trayIcon = tray
    // Windows users expect a left click to open a small panel by the clock; elsewhere it opens the dashboard.
    if (options.platform === 'win32') trayIcon.on('click', () => popover.toggle(trayIcon.getBounds()))
    else trayIcon.on('click', () => openDashboard())
    trayIcon.on('balloon-click', () => openDashboard())
    const refreshTray = (): void => controller.update(view)
    const refreshProfiles = async (): Promise<void> => {
      try {
        const summary = await c.handlers['profiles:list']()
        view.profiles = summary.profiles
        view.activeProfileId = summary.activeProfileId
        refreshTray()
      } catch (err) {
        log.warn(`profiles could not be listed: ${(err as Error).message}`)
      }
    }

    c.on('server:state-changed', (status) => {
      view.status = status
      if (status.state !== 'ready') view.tokensPerSecond = null
      announce(attention.onStatus(status))
      refreshTray()
      // A start or switch changes the store's active profile without a profiles:changed event.
      if (status.state === 'ready' || status.state === 'stopped') void refreshProfiles()
    })
    let lastPowerNoticeAt: number | null = null
    c.on('snapshot', (snapshot) => {
      view.tokensPerSecond = snapshot.generation?.tokensPerSecond ?? null
      view.freeVramMiB = snapshot.gpu?.devices[0]?.memoryFreeMiB ?? null
      view.warnings = snapshot.warnings
      view.endpointPort = snapshot.endpoint?.listening ? snapshot.endpoint.port : null
      void homeLock?.setPort(view.endpointPort ?? view.status.port)
      view.pinnedCount = snapshot.pinned?.length ?? 0
      view.pendingSwitch = snapshot.pendingSwitch ?? null
      // What the onBattery or onGame setting, or a resume, did: once per notice, titled by what it is about.
      const powerNotice = snapshot.powerNotice ?? null
      if (powerNotice && powerNotice.at !== lastPowerNoticeAt) {
        lastPowerNoticeAt = powerNotice.at
        announce({ title: POWER_NOTICE_TITLES[powerNotice.kind], body: powerNotice.sentence, urgent: false })
      }
      announce(attention.onWarnings(snapshot.warnings, window.isFocused() || popover.isVisible()))
      refreshTray()
    })
    c.on('profiles:changed', (summary) => {
      view.profiles = summary.profiles
      view.activeProfileId = summary.activeProfileId
      refreshTray()
    })
    c.on('settings:changed', (next) => {
      if (next.startWithSystem !== settings.startWithSystem) {
        applyLoginItem(app, next.startWithSystem)
        log.info(`start with the system: ${next.startWithSystem ? 'on' : 'off'}`)
      }
      if (next.hardwareAcceleration !== settings.hardwareAcceleration) log.info('hardware acceleration changes at the next start')
      settings = next
    })
    attention.onStatus(view.status)
    refreshTray()
    await refreshProfiles()

    for (const message of c.startupMessages) announce({ title: 'Llama Tray recovered a file', body: message, urgent: false })
    if (showWhenReady) openDashboard()
    if (settings.startProfileOnLaunch) actions.start(settings.startProfileOnLaunch)
    log.info(`ready (home ${home}, hardware acceleration ${boot.hardwareAcceleration ? 'on' : 'off'})`)
  }

  const ready = app
    .whenReady()
    .then(onReady)
    .catch((err: Error) => {
      log.error(`start-up failed: ${err.stack ?? err.message}`)
      dialog.showErrorBox('Llama Tray could not start', err.message)
      app.quit()
    })
  return { primary: true, ready }
}

export function fileDialogOptions(role: ProfileFileRole, current: string, platform: NodeJS.Platform): OpenDialogOptions {
  const filters =
    role === 'binary'
      ? platform === 'win32'
        ? [{ name: 'llama-server', extensions: ['exe'] }]
        : []
      : [
          { name: 'GGUF model', extensions: ['gguf'] },
          { name: 'All files', extensions: ['*'] },
        ]
  const title =
    role === 'binary'
      ? 'Choose the llama-server executable'
      : role === 'model'
        ? 'Choose the model (.gguf)'
        : 'Choose the draft model (.gguf)'
  return { title, properties: ['openFile', 'dontAddToRecent'], filters, ...(current ? { defaultPath: current } : {}) }
}
