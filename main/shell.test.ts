import { problem } from '../app/contract/problem'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { COMMAND_NAMES, type CommandChannels, type EventChannels } from '../app/contract/commands'
import { DEFAULT_SETTINGS, type AppSettings } from '../app/contract/settings'
import type { ServerStatus } from '../app/contract/server-state'
import { Listeners } from '../app/lib/listeners'
import { NEVER_STARTED, serverStatus } from '../test/helpers/server-status'
import {
  fake,
  fakeEvent,
  FakeBrowserWindow,
  FakeFrame,
  fakeLogger,
  FakeNotification,
  FakeTray,
  FakeWebContents,
  resetFakeElectron,
} from '../test/support/main/fake-electron'

vi.mock('electron', async () => (await import('../test/support/main/fake-electron')).fakeElectronModule())
vi.mock('electron-log/main', async () => (await import('../test/support/main/fake-electron')).fakeElectronLogModule())

const { startShell } = await import('./shell')
const { HomeLock, HomeInUseError } = await import('../app/core/home-lock')
const { APP_ID } = await import('./app-identity')

const stopped: ServerStatus = NEVER_STARTED

interface FakeCore {
  readonly handlers: CommandChannels
  readonly events: Listeners<EventChannels>
  readonly order: string[]
  settings: AppSettings
  startupMessages: readonly string[]
  on: Listeners<EventChannels>['on']
  dispose(): Promise<void>
  finishDispose(): void
}

function fakeCore(settings: Partial<AppSettings> = {}, disposeHangs = false): FakeCore {
  const events = new Listeners<EventChannels>()
  const order: string[] = []
  let finish: () => void = () => undefined
  const answers: Partial<Record<string, unknown>> = {
    'server:status': stopped,
    'profiles:list': {
      health: 'ok',
      messages: [],
      activeProfileId: 'qwen',
      profiles: [
        { id: 'qwen', name: 'Qwen3 30B', binary: '', model: '', draftModel: null, engine: null, notes: '', active: true, updatedAt: '' },
      ],
    },
    'server:start': { ok: true, value: stopped },
  }
  const handlers = Object.fromEntries(
    COMMAND_NAMES.map((c) => [
      c,
      vi.fn(async (...args: unknown[]) => {
        order.push(`${c}(${args.map((a) => JSON.stringify(a)).join(',')})`)
        return answers[c]
      }),
    ]),
  ) as unknown as CommandChannels
  return {
    handlers,
    events,
    order,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    startupMessages: [],
    on: (event, listener) => events.on(event, listener),
    dispose: () => {
      order.push('dispose:start')
      return new Promise<void>((resolve) => {
        finish = () => {
          order.push('dispose:done')
          resolve()
        }
        if (!disposeHangs) setTimeout(() => finish(), 20)
      })
    },
    finishDispose: () => finish(),
  }
}

let home: string
const sigintBefore = process.listeners('SIGINT')
const sigtermBefore = process.listeners('SIGTERM')

beforeEach(() => {
  resetFakeElectron()
  home = mkdtempSync(join(tmpdir(), 'llama-tray-shell-'))
})

// Every shell a test started finishes its start-up before the next test resets the fake Electron:
// a late one would put its tray and windows among the next test's instances.
const started: Promise<void>[] = []

afterEach(async () => {
  fake.app.releaseReady() // a test that held 'ready' lets its shell finish too
  await Promise.all(started.splice(0))
  for (const l of process.listeners('SIGINT')) if (!sigintBefore.includes(l)) process.removeListener('SIGINT', l)
  for (const l of process.listeners('SIGTERM')) if (!sigtermBefore.includes(l)) process.removeListener('SIGTERM', l)
  rmSync(home, { recursive: true, force: true })
})

function start(
  core: FakeCore,
  extra: { argv?: string[]; platform?: NodeJS.Platform; quitTimeoutMs?: number; env?: NodeJS.ProcessEnv; homeLock?: boolean } = {},
) {
  const createCore = vi.fn(async () => core)
  const handle = startShell({
    argv: extra.argv ?? ['electron', '.'],
    env: { LLAMA_TRAY_HOME: home, ...extra.env },
    platform: extra.platform ?? 'linux',
    mainDir: '/fake/app/out/main',
    createCore,
    quitTimeoutMs: extra.quitTimeoutMs,
    ...(extra.homeLock ? { lockHome: (h: string) => HomeLock.acquire(h, 'app') } : {}),
  })
  started.push(handle.ready)
  return { handle, createCore }
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms))
const dashboardWindow = (): FakeBrowserWindow => FakeBrowserWindow.instances[0]!

describe('single instance', () => {
  it('a second launch quits at once and starts nothing', async () => {
    fake.app.lock = false
    const core = fakeCore()
    const { handle, createCore } = start(core)
    await handle.ready
    expect(handle.primary).toBe(false)
    expect(fake.app.calls).toEqual(['requestSingleInstanceLock', 'quit', 'quit:proceeded'])
    expect(createCore).not.toHaveBeenCalled()
    expect(FakeTray.instances).toEqual([])
  })

  it('the first instance shows and focuses its dashboard when another launch is attempted', async () => {
    const { handle } = start(fakeCore(), { argv: ['electron', '.', '--hidden'] })
    await handle.ready
    expect(FakeBrowserWindow.instances).toEqual([]) // started hidden, from the login item
    fake.app.emit('second-instance', fakeEvent(), [], '/')
    expect(dashboardWindow().visible).toBe(true)
    expect(dashboardWindow().focused).toBe(true)
    expect(dashboardWindow().loadedUrl).toBe('app://dashboard/index.html')
  })

  it('a serve of the same home holds it: the app says who (pid and port) in one sentence and quits, starting nothing', async () => {
    const serve = await HomeLock.acquire(home, 'serve')
    await serve.setPort(8080)
    try {
      const core = fakeCore()
      const { handle, createCore } = start(core, { homeLock: true })
      await handle.ready
      expect(fake.errorBoxes).toEqual([
        `Llama Tray already runs on this home: This home is in use by llama-tray serve (pid ${process.pid}, port 8080): ` +
          'stop it first, or switch through it with profiles use.',
      ])
      expect(fake.app.calls).toContain('quit')
      expect(createCore).not.toHaveBeenCalled()
      expect(FakeTray.instances).toEqual([])
    } finally {
      await serve.release()
    }
  })

  it('the app holds the home while it runs (a serve is refused with its endpoint port) and gives it back at quit', async () => {
    const core = fakeCore()
    const { handle } = start(core, { homeLock: true })
    await handle.ready
    core.events.emit('snapshot', { time: 0, server: stopped, endpoint: { listening: true, port: 8081 } as never, warnings: [] } as never)
    await vi.waitFor(async () => {
      const refused = await HomeLock.acquire(home, 'serve').then(
        async (l) => (await l.release(), null),
        (err: unknown) => err,
      )
      expect(refused).toBeInstanceOf(HomeInUseError)
      expect((refused as Error).message).toBe(
        `This home is in use by the Llama Tray app (pid ${process.pid}, port 8081): quit it first, or use its endpoint.`,
      )
    })
    fake.app.quit()
    await vi.waitFor(() => expect(fake.app.calls).toContain('exit:0'))
    const after = await HomeLock.acquire(home, 'serve')
    await after.release()
  })

  it('uses the home folder as userData, so the lock and the CLI share it', () => {
    start(fakeCore())
    expect(fake.app.getPath('userData')).toBe(home)
  })
})

describe('hardware acceleration', () => {
  it('is off by default, before Electron is ready', () => {
    fake.app.holdReady()
    start(fakeCore())
    expect(fake.app.calls).toContain('disableHardwareAcceleration')
  })

  it('stays on when settings.json enables it', () => {
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ hardwareAcceleration: true }))
    start(fakeCore())
    expect(fake.app.calls).not.toContain('disableHardwareAcceleration')
  })

  it('is off when settings.json is unreadable', () => {
    writeFileSync(join(home, 'settings.json'), '{ not json')
    start(fakeCore())
    expect(fake.app.calls).toContain('disableHardwareAcceleration')
  })
})

describe('quit', () => {
  it('stops the server before the process exits, once', async () => {
    const core = fakeCore({}, true)
    const { handle } = start(core)
    await handle.ready
    fake.app.quit()
    await vi.waitFor(() => expect(core.order).toContain('dispose:start'))
    fake.app.quit() // a second request while stopping changes nothing
    await tick(30)
    expect(fake.app.calls).not.toContain('exit:0')
    expect(core.order.filter((o) => o === 'dispose:start')).toEqual(['dispose:start'])
    core.finishDispose()
    await vi.waitFor(() => expect(fake.app.calls).toContain('exit:0'))
    expect(core.order.slice(-2)).toEqual(['dispose:start', 'dispose:done'])
    expect(fake.app.calls).not.toContain('quit:proceeded')
    expect(FakeTray.instances[0]!.destroyed).toBe(true)
  })

  it('the tray Quit item goes through the same path', async () => {
    const core = fakeCore()
    const { handle } = start(core)
    await handle.ready
    const menu = FakeTray.instances[0]!.menus.at(-1)!.template as { id?: string; click?: () => void }[]
    menu.find((i) => i.id === 'quit')!.click!()
    await vi.waitFor(() => expect(fake.app.calls).toContain('exit:0'))
    expect(core.order).toContain('dispose:done')
  })

  it('exits anyway if the server does not stop in time (the next start reaps it)', async () => {
    const core = fakeCore({}, true)
    const { handle } = start(core, { quitTimeoutMs: 30 })
    await handle.ready
    fake.app.quit()
    await vi.waitFor(() => expect(fake.app.calls).toContain('exit:0'))
    expect(core.order).toContain('dispose:start')
    expect(core.order).not.toContain('dispose:done')
  })

  it('before Electron is ready, exits without creating the core', async () => {
    fake.app.holdReady()
    const core = fakeCore()
    const { handle, createCore } = start(core)
    fake.app.quit()
    await vi.waitFor(() => expect(fake.app.calls).toContain('exit:0'))
    fake.app.releaseReady()
    await handle.ready
    expect(createCore).not.toHaveBeenCalled()
  })

  it('SIGINT (Ctrl+C in a terminal) quits through the same path', async () => {
    const core = fakeCore()
    const { handle } = start(core)
    await handle.ready
    process.emit('SIGINT', 'SIGINT')
    await vi.waitFor(() => expect(fake.app.calls).toContain('exit:0'))
    expect(core.order).toContain('dispose:done')
  })
})

describe('window', () => {
  it('closing hides it (the app stays in the tray) and tells the core it is not visible', async () => {
    const core = fakeCore()
    const { handle } = start(core)
    await handle.ready
    const win = dashboardWindow()
    expect(win.visible).toBe(true)
    expect(win.userClose().defaultPrevented).toBe(true)
    expect(win.visible).toBe(false)
    expect(win.destroyed).toBe(false)
    expect(core.order.filter((o) => o.startsWith('dashboard:visible'))).toEqual(['dashboard:visible(true)', 'dashboard:visible(false)'])
    fake.app.emit('window-all-closed')
    expect(fake.app.calls).not.toContain('quit')
  })

  it('is created with the security flags and no DevTools when packaged', async () => {
    fake.app.isPackaged = true
    const { handle } = start(fakeCore())
    await handle.ready
    const prefs = dashboardWindow().options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
      devTools: false,
    })
    expect(prefs.preload).toBe(join('/fake/app/out/main', '..', 'preload', 'index.js'))
  })

  it('denies every permission request but the clipboard write of its own page, and serves the dashboard on app:// only', async () => {
    const { handle } = start(fakeCore())
    await handle.ready
    const ses = fake.session.defaultSession
    const answers: boolean[] = []
    ses.permissionRequestHandler!(null, 'media', (granted) => answers.push(granted))
    ses.permissionRequestHandler!(null, 'notifications', (granted) => answers.push(granted))
    expect(answers).toEqual([false, false])
    expect(ses.permissionCheckHandler!()).toBe(false)
    // …but the Copy buttons' clipboard write, from the dashboard window main created, on its own page.
    const page = { requestingUrl: 'app://dashboard/index.html', isMainFrame: true }
    ses.permissionRequestHandler!(dashboardWindow().webContents, 'clipboard-sanitized-write', (granted) => answers.push(granted), page)
    ses.permissionRequestHandler!(new FakeWebContents(), 'clipboard-sanitized-write', (granted) => answers.push(granted), page)
    expect(answers).toEqual([false, false, true, false])
    expect(ses.permissionCheckHandler!(dashboardWindow().webContents, 'clipboard-sanitized-write', 'app://dashboard', page)).toBe(true)
    expect([...ses.protocolHandlers.keys()]).toEqual(['app'])
    expect(fake.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }])
  })

  it('a left click on the tray opens the dashboard', async () => {
    const { handle } = start(fakeCore(), { argv: ['electron', '.', '--hidden'] })
    await handle.ready
    FakeTray.instances[0]!.emit('click')
    expect(dashboardWindow().visible).toBe(true)
  })
})

describe('system integration', () => {
  it('registers every command channel with main', async () => {
    const { handle } = start(fakeCore())
    await handle.ready
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual([...COMMAND_NAMES].sort())
  })

  it('sets the AppUserModelID on Windows (the exe path in development)', async () => {
    start(fakeCore(), { platform: 'win32' })
    expect(fake.app.calls).toContain(`setAppUserModelId:${process.execPath}`)
    resetFakeElectron()
    fake.app.isPackaged = true
    start(fakeCore(), { platform: 'win32' })
    expect(fake.app.calls).toContain(`setAppUserModelId:${APP_ID}`)
  })

  it('starts the chosen profile when the app starts', async () => {
    const core = fakeCore({ startProfileOnLaunch: 'qwen' })
    const { handle } = start(core)
    await handle.ready
    expect(core.order).toContain('server:start("qwen")')
  })

  it('changes the login item only when the user toggles the setting', async () => {
    const core = fakeCore()
    const { handle } = start(core)
    await handle.ready
    expect(fake.app.loginItems).toEqual([])
    core.events.emit('settings:changed', { ...core.settings, pollIntervalMs: 2000 })
    expect(fake.app.loginItems).toEqual([])
    core.events.emit('settings:changed', { ...core.settings, startWithSystem: true })
    expect(fake.app.loginItems).toEqual([{ openAtLogin: true, name: 'Llama Tray', path: process.execPath, args: ['--hidden'] }])
    core.events.emit('settings:changed', { ...core.settings, startWithSystem: true, pollIntervalMs: 500 })
    expect(fake.app.loginItems.length).toBe(1)
  })

  it('notifies a crash while notifications are on, and not after the user turns them off', async () => {
    const core = fakeCore()
    const { handle } = start(core)
    await handle.ready
    const exit = {
      code: 1,
      signal: null,
      reason: 'out of GPU memory for the KV cache',
      hint: 'Lower -c',
      kind: 'out-of-memory-kv' as const,
      problem: null,
    }
    core.events.emit('server:state-changed', serverStatus('errored', { profileId: 'qwen', lastExit: exit }))
    expect(FakeNotification.instances.map((n) => [n.options.title, n.shown])).toEqual([['Qwen3 30B could not start', true]])
    expect(FakeNotification.instances[0]!.options.body).toContain('Out of GPU memory')
    core.events.emit('settings:changed', { ...core.settings, notifications: false })
    core.events.emit('server:state-changed', serverStatus('stopped', { profileId: 'qwen' }))
    core.events.emit('server:state-changed', serverStatus('crashloop', { profileId: 'qwen', lastExit: exit, restarts: 5 }))
    expect(FakeNotification.instances.length).toBe(1)
  })

  it('the tray follows the server state and its tooltip the live figures', async () => {
    const core = fakeCore()
    const { handle } = start(core)
    await handle.ready
    const tray = FakeTray.instances[0]!
    core.events.emit('server:state-changed', serverStatus('ready', { profileId: 'qwen', port: 8081, pid: 7 }))
    core.events.emit('snapshot', {
      time: 0,
      server: serverStatus('ready', { profileId: null, exe: null }),
      generation: { tokensPerSecond: 31.2 } as never,
      gpu: { devices: [{ memoryFreeMiB: 2048 }] } as never,
      cpu: null,
      warnings: [],
    })
    expect(tray.tooltips.at(-1)).toBe('Llama Tray: Ready\nQwen3 30B\n31.2 tok/s · 2.0 GiB VRAM free')
    const image = tray.images.at(-1) as { representations: { scaleFactor: number; buffer: Buffer }[] }
    expect(image.representations.map((r) => [r.scaleFactor, r.buffer.toString()])).toEqual(
      [16, 20, 24, 32].map((size) => [size / 16, join('/fake/app', 'resources', 'tray', `ready-${size}.png`)]),
    )
  })

  it('Restart in the tray menu restarts the running server; a failure is announced', async () => {
    const core = fakeCore()
    ;(core.handlers['server:restart'] as unknown as ReturnType<typeof vi.fn>).mockResolvedValue({
      ok: false,
      error: problem('server', 'port 8081 is in use'),
    })
    const { handle } = start(core)
    await handle.ready
    core.events.emit('server:state-changed', serverStatus('ready', { profileId: 'qwen', port: 8081, pid: 7 }))
    const menu = FakeTray.instances[0]!.menus.at(-1)!.template as { id?: string; click?: () => void }[]
    expect(menu.filter((i) => i.id === 'start')).toEqual([])
    menu.find((i) => i.id === 'restart')!.click!()
    await vi.waitFor(() => expect(FakeNotification.instances.length).toBe(1))
    expect(core.handlers['server:restart']).toHaveBeenCalledOnce()
    expect(FakeNotification.instances[0]!.options).toMatchObject({ title: 'Could not restart Qwen3 30B', body: 'Port 8081 is in use.' })
  })

  it("hands the core Electron's powerMonitor as its power source, and announces what the onBattery setting did once", async () => {
    const core = fakeCore()
    const { handle, createCore } = start(core)
    await handle.ready
    const power = (createCore.mock.calls[0] as unknown as [{ power: { current(): { source: string } } }])[0].power
    fake.powerMonitor.onBattery = true
    expect(power.current().source).toBe('battery')
    const snapshot = {
      time: 0,
      server: serverStatus('ready', { profileId: 'small' }),
      generation: null,
      gpu: null,
      cpu: null,
      warnings: [],
      powerNotice: { sentence: 'On battery: switched from Qwen3 30B to small; Qwen3 30B returns on AC.', kind: 'power' as const, at: 5 },
    }
    core.events.emit('snapshot', snapshot)
    core.events.emit('snapshot', { ...snapshot, time: 1 })
    expect(FakeNotification.instances.map((n) => [n.options.title, n.options.body])).toEqual([
      ['Power and sleep', 'On battery: switched from Qwen3 30B to small; Qwen3 30B returns on AC.'],
    ])
  })

  it('titles what the onGame setting did as a game notice, not a power one, once per notice', async () => {
    const core = fakeCore()
    const { handle } = start(core)
    await handle.ready
    const stopped = 'Cyberpunk2077.exe holds the GPU (5,120 MiB): stopped Qwen3 30B to free its VRAM; it returns 30 s after the game.'
    const back = 'Cyberpunk2077.exe no longer holds the GPU: Qwen3 30B is back.'
    const snapshot = { time: 0, server: serverStatus('stopped'), generation: null, gpu: null, cpu: null, warnings: [] }
    core.events.emit('snapshot', { ...snapshot, powerNotice: { sentence: stopped, kind: 'game' as const, at: 5 } })
    core.events.emit('snapshot', { ...snapshot, time: 1, powerNotice: { sentence: stopped, kind: 'game' as const, at: 5 } })
    core.events.emit('snapshot', { ...snapshot, time: 2, powerNotice: { sentence: back, kind: 'game' as const, at: 9 } })
    core.events.emit('snapshot', {
      ...snapshot,
      time: 3,
      powerNotice: { sentence: 'After the sleep the server did not answer, so it was restarted.', kind: 'resume' as const, at: 12 },
    })
    expect(FakeNotification.instances.map((n) => [n.options.title, n.options.body])).toEqual([
      ['Game on the GPU', stopped],
      ['Game on the GPU', back],
      ['Power and sleep', 'After the sleep the server did not answer, so it was restarted.'],
    ])
  })

  it('a failed start from the tray is announced', async () => {
    const core = fakeCore()
    ;(core.handlers['server:start'] as unknown as ReturnType<typeof vi.fn>).mockResolvedValue({
      ok: false,
      error: problem('profile', 'flag-removed: --no-mmap: use -lm none'),
    })
    const { handle } = start(core)
    await handle.ready
    const menu = FakeTray.instances[0]!.menus.at(-1)!.template as { id?: string; click?: () => void }[]
    menu.find((i) => i.id === 'profile:qwen')!.click!()
    await vi.waitFor(() => expect(FakeNotification.instances.length).toBe(1))
    expect(FakeNotification.instances[0]!.options).toMatchObject({
      title: 'Could not start Qwen3 30B',
      body: 'Flag-removed: --no-mmap: use -lm none.',
    })
    await tick()
  })
})

const errored = (core: FakeCore): void => {
  const exit = {
    code: 1,
    signal: null,
    reason: 'out of GPU memory for the KV cache',
    hint: 'Lower -c',
    kind: 'out-of-memory-kv' as const,
    problem: null,
  }
  core.events.emit('server:state-changed', serverStatus('errored', { profileId: 'qwen', lastExit: exit }))
}

describe('menu', () => {
  it("removes Electron's default menu (Alt → Reload, DevTools) before Electron is ready and before any window", async () => {
    fake.app.holdReady()
    const { handle } = start(fakeCore())
    expect(fake.applicationMenus).toEqual([{ menu: null, windowsBefore: 0 }])
    fake.app.releaseReady()
    await handle.ready
    expect(FakeBrowserWindow.instances.length).toBe(1)
    expect(fake.applicationMenus.length).toBe(1)
  })

  it('on macOS, where Cmd+C/V/Q need a menu, gets only the app and Edit menus (no Reload, no DevTools)', async () => {
    const { handle } = start(fakeCore(), { platform: 'darwin' })
    await handle.ready
    expect(fake.applicationMenus).toEqual([{ menu: { template: [{ role: 'appMenu' }, { role: 'editMenu' }] }, windowsBefore: 0 }])
  })
})

describe('Windows folders', () => {
  let local: string
  beforeEach(() => (local = mkdtempSync(join(tmpdir(), 'llama-tray-local-'))))
  afterEach(() => rmSync(local, { recursive: true, force: true }))

  it("puts Chromium's session data, crash dumps and the app log under %LOCALAPPDATA%, and keeps the user's files in the home folder", async () => {
    writeFileSync(join(home, 'profiles.json'), '{"version":1}')
    const { handle } = start(fakeCore(), { platform: 'win32', env: { LOCALAPPDATA: local } })
    expect(fake.app.getPath('userData')).toBe(home)
    expect(fake.app.getPath('sessionData')).toBe(join(local, 'llama-tray', 'session'))
    expect(fake.app.getPath('crashDumps')).toBe(join(local, 'llama-tray', 'crashes'))
    expect(fake.app.getPath('logs')).toBe(join(local, 'llama-tray', 'logs'))
    expect(fakeLogger.transports.file.resolvePathFn!()).toBe(join(local, 'llama-tray', 'logs', 'llama-tray-app.log'))
    await handle.ready
    expect(readFileSync(join(home, 'profiles.json'), 'utf8')).toBe('{"version":1}')
  })

  it('elsewhere, leaves session data with the home folder and logs in <home>/logs', () => {
    start(fakeCore(), { platform: 'linux', env: { LOCALAPPDATA: local } })
    expect(fake.app.paths.has('sessionData')).toBe(false)
    expect(fake.app.paths.has('logs')).toBe(false)
    expect(fakeLogger.transports.file.resolvePathFn!()).toBe(join(home, 'logs', 'llama-tray-app.log'))
    expect(existsSync(join(local, 'llama-tray'))).toBe(false)
  })
})

describe('notifications on Windows', () => {
  it('the installed build shows toasts under the AppUserModelID of its Start Menu shortcut', async () => {
    fake.app.isPackaged = true
    const core = fakeCore()
    const { handle } = start(core, { platform: 'win32' })
    await handle.ready
    expect(fake.app.calls).toContain(`setAppUserModelId:${APP_ID}`)
    errored(core)
    expect(FakeNotification.instances.map((n) => n.shown)).toEqual([true])
    expect(FakeTray.instances[0]!.balloons).toEqual([])
  })

  it.each([{ PORTABLE_EXECUTABLE_FILE: 'D:\\Tools\\Llama Tray.exe' }, { PORTABLE_EXECUTABLE_DIR: 'D:\\Tools' }])(
    'the portable build (%o), which has no shortcut, uses the tray balloon; a click on it opens the dashboard',
    async (env) => {
      fake.app.isPackaged = true
      const core = fakeCore()
      const { handle } = start(core, { platform: 'win32', env, argv: ['electron', '.', '--hidden'] })
      await handle.ready
      errored(core)
      expect(FakeNotification.instances).toEqual([])
      const tray = FakeTray.instances[0]!
      expect(tray.balloons).toEqual([
        { title: 'Qwen3 30B could not start', content: 'Out of GPU memory for the KV cache. Lower -c.', iconType: 'error' },
      ])
      expect(FakeBrowserWindow.instances).toEqual([])
      tray.emit('balloon-click')
      expect(dashboardWindow().visible).toBe(true)
    },
  )

  it('the portable build honours the notifications setting for balloons too', async () => {
    fake.app.isPackaged = true
    const core = fakeCore({ notifications: false })
    const { handle } = start(core, { platform: 'win32', env: { PORTABLE_EXECUTABLE_FILE: 'D:\\Llama Tray.exe' } })
    await handle.ready
    errored(core)
    expect(FakeTray.instances[0]!.balloons).toEqual([])
  })
})

describe('tray popover (Windows)', () => {
  const popoverWindow = (): FakeBrowserWindow | undefined =>
    FakeBrowserWindow.instances.find((w) => w.options.width === 360 && w.options.frame === false)

  it('a left click opens the 360 px popover by the tray icon; it hides when it loses focus', async () => {
    const core = fakeCore()
    const { handle } = start(core, { platform: 'win32', argv: ['electron', '.', '--hidden'] })
    await handle.ready
    const tray = FakeTray.instances[0]!
    tray.bounds = { x: 1800, y: 1048, width: 24, height: 32 } // in a bottom taskbar below the 1040 px work area
    tray.emit('click')
    const popover = popoverWindow()!
    expect(popover.visible).toBe(true)
    expect(popover.focused).toBe(true)
    expect(popover.loadedUrl).toBe('app://dashboard/popover.html')
    expect(popover.bounds).toEqual({ x: 1552, y: 512, width: 360, height: 520 })
    expect(FakeBrowserWindow.instances.length).toBe(1) // not the dashboard
    expect(core.order.filter((o) => o.startsWith('dashboard:visible'))).toEqual(['dashboard:visible(true)'])
    popover.blur()
    expect(popover.visible).toBe(false)
    expect(core.order.filter((o) => o.startsWith('dashboard:visible'))).toEqual(['dashboard:visible(true)', 'dashboard:visible(false)'])
    // The click that took the focus away must not reopen it at once.
    tray.emit('click')
    expect(popover.visible).toBe(false)
  })

  it('calls main as the dashboard does (its page is trusted) and gets the pushed events', async () => {
    const core = fakeCore()
    const { handle } = start(core, { platform: 'win32', argv: ['electron', '.', '--hidden'] })
    await handle.ready
    FakeTray.instances[0]!.emit('click')
    const contents = popoverWindow()!.webContents
    await expect(fake.ipcMain.invoke('server:status', contents, new FakeFrame('app://dashboard/popover.html'))).resolves.toEqual(stopped)
    core.events.emit('server:state-changed', { ...stopped, state: 'starting', profileId: 'qwen' })
    expect(contents.sent.map((m) => m.channel)).toContain('server:state-changed')
  })

  it("telemetry stays on while either window shows; the pages' own visibility reports are not passed on", async () => {
    const core = fakeCore()
    const { handle } = start(core, { platform: 'win32' })
    await handle.ready
    const visible = () => core.order.filter((o) => o.startsWith('dashboard:visible'))
    expect(visible()).toEqual(['dashboard:visible(true)'])
    FakeTray.instances[0]!.emit('click')
    const popover = popoverWindow()!
    popover.blur()
    expect(visible()).toEqual(['dashboard:visible(true)']) // the dashboard still shows
    await fake.ipcMain.invoke('dashboard:visible', popover.webContents, new FakeFrame('app://dashboard/popover.html'), false)
    expect(visible()).toEqual(['dashboard:visible(true)'])
    dashboardWindow().hide()
    expect(visible()).toEqual(['dashboard:visible(true)', 'dashboard:visible(false)'])
  })

  it('"Open dashboard" from the tray menu closes the popover and shows the dashboard', async () => {
    const { handle } = start(fakeCore(), { platform: 'win32', argv: ['electron', '.', '--hidden'] })
    await handle.ready
    const tray = FakeTray.instances[0]!
    tray.emit('click')
    const menu = tray.menus.at(-1)!.template as { id?: string; click?: () => void }[]
    menu.find((i) => i.id === 'dashboard')!.click!()
    expect(popoverWindow()!.visible).toBe(false)
    expect(FakeBrowserWindow.instances.find((w) => w !== popoverWindow())!.visible).toBe(true)
  })

  it('"Open dashboard" on the popover page (dashboard:open over IPC) closes the popover and shows the dashboard', async () => {
    const { handle } = start(fakeCore(), { platform: 'win32', argv: ['electron', '.', '--hidden'] })
    await handle.ready
    FakeTray.instances[0]!.emit('click')
    const popover = popoverWindow()!
    expect(popover.visible).toBe(true)
    const frame = new FakeFrame('app://dashboard/popover.html')
    await expect(fake.ipcMain.invoke('dashboard:open', popover.webContents, frame)).resolves.toBeUndefined()
    expect(popover.visible).toBe(false)
    expect(FakeBrowserWindow.instances.find((w) => w !== popover)!.visible).toBe(true)
  })
})
