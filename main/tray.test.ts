import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'
import type { ProfileSummary } from '../app/contract/profile'
import { SERVER_STATE_KINDS, type ServerStateKind, type ServerStatus } from '../app/contract/server-state'
import { FakeBrowserWindow, FakeTray } from '../test/support/main/fake-electron'
import { serverStatus } from '../test/helpers/server-status'

vi.mock('electron', async () => (await import('../test/support/main/fake-electron')).fakeElectronModule())

const { buildTrayTemplate, selectedProfileId, templateKey } = await import('./tray-menu')
const { TOOLTIP_MAX, trayIconState, trayTooltip } = await import('./tray-view')
const { TrayController } = await import('./tray-controller')
const { trayActionsFor } = await import('./tray-actions')
const { popoverPosition } = await import('./popover-position')
const { TrayPopover } = await import('./tray-popover')
type TrayView = import('./tray-view').TrayView

function profile(id: string, name: string, active = false): ProfileSummary {
  return {
    id,
    name,
    binary: '/opt/llama-server',
    model: `/models/${id}.gguf`,
    draftModel: null,
    fork: 'mainline',
    notes: '',
    active,
    pinned: false,
    updatedAt: '2025-01-01T00:00:00Z',
  }
}

function status<K extends ServerStateKind>(
  state: K,
  profileId: string | null = 'qwen',
  extra: Parameters<typeof serverStatus<K>>[1] = {},
): ServerStatus {
  return { ...serverStatus(state, extra), profileId, exe: '/opt/llama-server' }
}

function view(state: ServerStateKind, extra: Partial<TrayView> = {}): TrayView {
  return {
    status: status(state),
    profiles: [profile('qwen', 'Qwen3 30B A3B', true), profile('gpt-oss', 'GPT-OSS 20B')],
    activeProfileId: 'qwen',
    tokensPerSecond: null,
    freeVramMiB: null,
    warnings: [],
    ...extra,
  }
}

function recorder(): { actions: Parameters<typeof buildTrayTemplate>[1]; log: string[] } {
  const log: string[] = []
  return {
    log,
    actions: {
      start: (id) => void log.push(`start:${id}`),
      stop: () => void log.push('stop'),
      restart: () => void log.push('restart'),
      setPinned: (id, pinned) => void log.push(`${pinned ? 'pin' : 'unpin'}:${id}`),
      switchNow: () => void log.push('switch-now'),
      openDashboard: () => void log.push('dashboard'),
      openLogsFolder: () => void log.push('logs'),
      quit: () => void log.push('quit'),
    },
  }
}

const item = (template: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions => {
  const found = template.find((i) => i.id === id)
  if (!found) throw new Error(`no item ${id}`)
  return found
}
const click = (i: MenuItemConstructorOptions): void => (i.click as () => void)()

const EXPECTED: Record<ServerStateKind, { id: 'start' | 'stop'; label: string; enabled: boolean; icon: string; radiosEnabled: boolean }> = {
  stopped: { id: 'start', label: 'Start Qwen3 30B A3B', enabled: true, icon: 'stopped', radiosEnabled: true },
  starting: { id: 'stop', label: 'Stop server', enabled: true, icon: 'loading', radiosEnabled: true },
  downloading: { id: 'stop', label: 'Stop server', enabled: true, icon: 'loading', radiosEnabled: true },
  loading: { id: 'stop', label: 'Stop server', enabled: true, icon: 'loading', radiosEnabled: true },
  ready: { id: 'stop', label: 'Stop server', enabled: true, icon: 'ready', radiosEnabled: true },
  sleeping: { id: 'stop', label: 'Stop server', enabled: true, icon: 'ready', radiosEnabled: true },
  stopping: { id: 'stop', label: 'Stopping…', enabled: false, icon: 'loading', radiosEnabled: false },
  backoff: { id: 'stop', label: 'Stop server', enabled: true, icon: 'warning', radiosEnabled: true },
  crashloop: { id: 'start', label: 'Start Qwen3 30B A3B', enabled: true, icon: 'error', radiosEnabled: true },
  errored: { id: 'start', label: 'Start Qwen3 30B A3B', enabled: true, icon: 'error', radiosEnabled: true },
}

describe.each(SERVER_STATE_KINDS.map((s) => [s]))('tray in state %s', (state) => {
  const expected = EXPECTED[state]

  it('offers the right Start/Stop item, radio profiles and fixed items', () => {
    const { actions, log } = recorder()
    const template = buildTrayTemplate(view(state), actions)
    const startStop = item(template, expected.id)
    expect(startStop.label).toBe(expected.label)
    expect(startStop.enabled).toBe(expected.enabled)
    if (expected.enabled) click(startStop)
    expect(log).toEqual(expected.enabled ? [expected.id === 'stop' ? 'stop' : 'start:qwen'] : [])
    // Restart only where a server runs: never for a stopped or failed one.
    const restart = template.find((i) => i.id === 'restart')
    const running =
      state === 'starting' ||
      state === 'downloading' ||
      state === 'loading' ||
      state === 'ready' ||
      state === 'sleeping' ||
      state === 'backoff'
    expect(restart?.label ?? null).toBe(running ? 'Restart server' : null)
    const before = [...log]
    if (restart) click(restart)
    expect(log).toEqual(running ? [...before, 'restart'] : before)
    expect(template.some((i) => i.id === 'start') && template.some((i) => i.id === 'stop')).toBe(false)

    const radios = template.filter((i) => i.type === 'radio')
    expect(radios.map((r) => r.label)).toEqual(['Qwen3 30B A3B', 'GPT-OSS 20B'])
    expect(radios.map((r) => r.checked)).toEqual([true, false])
    expect(radios.every((r) => r.enabled === expected.radiosEnabled)).toBe(true)
    for (const id of ['dashboard', 'logs', 'quit']) expect(item(template, id).enabled ?? true).toBe(true)
    expect(item(template, 'status').enabled).toBe(false)
    expect(trayIconState(view(state))).toBe(expected.icon)
  })

  it('switches with one click on another profile, and does nothing for the running one', () => {
    const { actions, log } = recorder()
    const template = buildTrayTemplate(view(state), actions)
    click(item(template, 'profile:gpt-oss'))
    click(item(template, 'profile:qwen'))
    const running =
      state === 'starting' ||
      state === 'downloading' ||
      state === 'loading' ||
      state === 'ready' ||
      state === 'sleeping' ||
      state === 'backoff'
    expect(log).toEqual(running ? ['start:gpt-oss'] : ['start:gpt-oss', 'start:qwen'])
  })

  it('wires the fixed items', () => {
    const { actions, log } = recorder()
    const template = buildTrayTemplate(view(state), actions)
    for (const id of ['dashboard', 'logs', 'quit']) click(item(template, id))
    expect(log).toEqual(['dashboard', 'logs', 'quit'])
  })
})

describe('tray menu edge cases', () => {
  it('names the active profile while nothing runs', () => {
    expect(item(buildTrayTemplate(view('stopped', { status: status('stopped', null) }), recorder().actions), 'status').label).toBe(
      'Qwen3 30B A3B: Stopped',
    )
    expect(
      item(buildTrayTemplate(view('stopped', { activeProfileId: null, status: status('stopped', null) }), recorder().actions), 'status')
        .label,
    ).toBe('Server: Stopped')
    expect(item(buildTrayTemplate(view('errored'), recorder().actions), 'status').label).toBe('Qwen3 30B A3B: Failed')
  })

  it('shows the one current warning (an error before a warning, never info) under the status; a click opens the dashboard', () => {
    const warnings = [
      { id: 'live.fyi@qwen', level: 'info' as const, headline: 'Fyi.', reason: '', fix: null },
      {
        id: 'live.heavy-apps@qwen',
        level: 'warn' as const,
        headline: 'Discord.exe uses 31% of the CPU & slows generation.',
        reason: '',
        fix: null,
      },
      {
        id: 'live.vram-low@qwen',
        level: 'error' as const,
        headline: 'Only 300 MiB of VRAM left: raise --n-cpu-moe.',
        reason: 'Measured on an RTX 4060 Laptop.',
        fix: null,
      },
    ]
    const { actions, log } = recorder()
    let template = buildTrayTemplate(view('ready', { warnings }), actions)
    expect(template.map((i) => i.id ?? i.type).slice(0, 3)).toEqual(['status', 'warning:live.vram-low@qwen', 'separator'])
    // The headline only: the reason is the dashboard's, one click away.
    expect(item(template, 'warning:live.vram-low@qwen').label).toBe('⚠ Only 300 MiB of VRAM left: raise --n-cpu-moe.')
    click(item(template, 'warning:live.vram-low@qwen'))
    expect(log).toEqual(['dashboard'])
    template = buildTrayTemplate(view('ready', { warnings: warnings.slice(0, 2) }), actions)
    // "&" would be read as a mnemonic marker on Windows.
    expect(item(template, 'warning:live.heavy-apps@qwen').label).toBe('⚠ Discord.exe uses 31% of the CPU && slows generation.')
    expect(buildTrayTemplate(view('ready', { warnings: warnings.slice(0, 1) }), actions).some((i) => i.id?.startsWith('warning:'))).toBe(
      false,
    )
    const long = buildTrayTemplate(view('ready', { warnings: [{ ...warnings[1]!, headline: 'x'.repeat(500) }] }), actions)
    expect(item(long, 'warning:live.heavy-apps@qwen').label!.length).toBeLessThanOrEqual(92)
  })

  it('without profiles: Start is disabled and a hint replaces the radio group', () => {
    const template = buildTrayTemplate(
      view('stopped', { profiles: [], activeProfileId: null, status: status('stopped', null) }),
      recorder().actions,
    )
    expect(item(template, 'start')).toMatchObject({ label: 'Start server', enabled: false })
    expect(item(template, 'no-profiles').enabled).toBe(false)
    expect(template.some((i) => i.type === 'radio')).toBe(false)
  })

  it('checks the running profile, not the store active one', () => {
    const v = view('ready', { status: status('ready', 'gpt-oss') })
    expect(selectedProfileId(v)).toBe('gpt-oss')
    expect(
      buildTrayTemplate(v, recorder().actions)
        .filter((i) => i.checked)
        .map((i) => i.id),
    ).toEqual(['profile:gpt-oss'])
    expect(item(buildTrayTemplate(v, recorder().actions), 'status').label).toBe('GPT-OSS 20B: Ready on port 8081')
    // Behind the endpoint, the one port clients use, not the server's private one.
    expect(item(buildTrayTemplate({ ...v, endpointPort: 8080 }, recorder().actions), 'status').label).toBe(
      'GPT-OSS 20B: Ready on port 8080',
    )
  })

  it('shows a sleeping server calmly: its port, what sleeping means, Stop and Restart as for a ready one', () => {
    const v = view('sleeping', { status: status('sleeping', 'qwen', { port: 8081, sleepIdleSeconds: 300 }) })
    const template = buildTrayTemplate(v, recorder().actions)
    expect(item(template, 'status').label).toBe('Qwen3 30B A3B: Sleeping on port 8081')
    expect(item(template, 'sleeping')).toMatchObject({
      label: 'Model unloaded after 300 s idle, VRAM freed; the next request wakes it',
      enabled: false,
    })
    expect(trayIconState(v)).toBe('ready')
    expect(buildTrayTemplate(view('ready'), recorder().actions).some((i) => i.id === 'sleeping')).toBe(false)
  })

  it('shows a warning icon while ready with a warning that needs attention', () => {
    expect(trayIconState(view('ready', { warnings: [{ id: 'w', level: 'info', headline: 'Fyi.', reason: '', fix: null }] }))).toBe('ready')
    expect(trayIconState(view('ready', { warnings: [{ id: 'w', level: 'warn', headline: 'Low VRAM.', reason: '', fix: null }] }))).toBe(
      'warning',
    )
  })
})

describe('tray tooltip', () => {
  it('shows the active profile and how many pinned servers run beside it', () => {
    expect(trayTooltip(view('ready', { tokensPerSecond: null, freeVramMiB: 512, pinnedCount: 1 }))).toBe(
      'Llama Tray: Ready\nQwen3 30B A3B +1 pinned\n512 MiB VRAM free',
    )
    expect(trayTooltip(view('stopped', { activeProfileId: null, status: status('stopped', null), pinnedCount: 2 }))).toBe(
      'Llama Tray: Stopped\n+2 pinned',
    )
    const long = trayTooltip(view('ready', { profiles: [profile('qwen', 'Q'.repeat(300), true)], pinnedCount: 1 }))
    expect(long.length).toBeLessThanOrEqual(TOOLTIP_MAX)
    expect(long).toMatch(/… \+1 pinned$/)
  })

  it('names the state, the profile, the live rate and the free VRAM', () => {
    expect(trayTooltip(view('ready', { tokensPerSecond: 23.456, freeVramMiB: 1536 }))).toBe(
      'Llama Tray: Ready\nQwen3 30B A3B\n23.5 tok/s · 1.5 GiB VRAM free',
    )
    expect(trayTooltip(view('ready', { tokensPerSecond: null, freeVramMiB: 512 }))).toBe(
      'Llama Tray: Ready\nQwen3 30B A3B\n512 MiB VRAM free',
    )
    expect(trayTooltip(view('stopped', { activeProfileId: null, status: status('stopped', null) }))).toBe('Llama Tray: Stopped')
    // No rate outside ready (a stale one would mislead).
    expect(trayTooltip(view('loading', { tokensPerSecond: 40 }))).toBe('Llama Tray: Loading model\nQwen3 30B A3B')
    // The server's own load progress, where it reports one (its child channel).
    const progress = { stage: 'text_model', stages: ['text_model'], value: 0.42 }
    expect(trayTooltip(view('loading', { status: status('loading', 'qwen', { progress }) }))).toBe(
      'Llama Tray: Loading model\nQwen3 30B A3B\nLoading text model 42 %',
    )
    // Sleeping: what it means instead of a rate (none while the model is unloaded), and the VRAM it freed.
    expect(
      trayTooltip(
        view('sleeping', { status: status('sleeping', 'qwen', { sleepIdleSeconds: 2 }), tokensPerSecond: 12, freeVramMiB: 6144 }),
      ),
    ).toBe('Llama Tray: Sleeping\nQwen3 30B A3B\nmodel unloaded after 2 s idle, VRAM freed; the next request wakes it · 6.0 GiB VRAM free')
    // Downloading (-hf): how far and how fast.
    expect(
      trayTooltip(
        view('downloading', {
          status: status('downloading', 'qwen', { download: { repo: 'o/r', file: 'a.gguf', bytes: 1.2e9, total: 20.1e9, rateBps: 2.5e7 } }),
        }),
      ),
    ).toBe('Llama Tray: Downloading model\nQwen3 30B A3B\n1.2 GB of 20.1 GB (5 %), 25 MB/s')
  })

  it('never exceeds 127 UTF-16 units nor splits a surrogate pair (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SERVER_STATE_KINDS),
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.option(fc.double({ min: 0, max: 1e12, noNaN: true })),
        fc.option(fc.double({ min: 0, max: 1e9, noNaN: true })),
        (state, name, rate, vram) => {
          const tip = trayTooltip(view(state, { profiles: [profile('qwen', name || 'x')], tokensPerSecond: rate, freeVramMiB: vram }))
          expect(tip.length).toBeLessThanOrEqual(TOOLTIP_MAX)
          expect(tip.startsWith('Llama Tray: ')).toBe(true)
          const last = tip.charCodeAt(tip.length - 1)
          expect(last >= 0xd800 && last <= 0xdbff).toBe(false)
        },
      ),
      { numRuns: 3000 },
    )
  })
})

describe('tray pin toggles', () => {
  const withPins = (state: ServerStateKind): TrayView =>
    view(state, {
      profiles: [
        profile('qwen', 'Qwen3 30B A3B', true),
        { ...profile('embed', 'Nomic embed'), pinned: true },
        profile('gpt-oss', 'GPT-OSS 20B'),
      ],
    })

  it('offers a Pin toggle for every profile but the chosen one, checked when pinned; a click pins or unpins', () => {
    const { actions, log } = recorder()
    const template = buildTrayTemplate(withPins('ready'), actions)
    const pins = item(template, 'pins')
    expect(pins.label).toBe('Pin beside the active profile')
    const toggles = pins.submenu as MenuItemConstructorOptions[]
    expect(toggles.map((t) => [t.id, t.label, t.type, t.checked])).toEqual([
      ['pin:embed', 'Nomic embed', 'checkbox', true],
      ['pin:gpt-oss', 'GPT-OSS 20B', 'checkbox', false],
    ])
    for (const t of toggles) click(t)
    expect(log).toEqual(['unpin:embed', 'pin:gpt-oss'])
    // The pinned profile is marked in the radio group; its click routes to its own server (the core decides).
    expect(item(template, 'profile:embed').label).toBe('Nomic embed (pinned)')
  })

  it('has no Pin entry with a single profile', () => {
    const template = buildTrayTemplate(view('stopped', { profiles: [profile('qwen', 'Qwen3 30B A3B', true)] }), recorder().actions)
    expect(template.some((i) => i.id === 'pins')).toBe(false)
  })

  it('replaces the menu when a pin changes', () => {
    const tray = new FakeTray(null)
    const controller = new TrayController(tray as never, (state) => ({ state }) as never, recorder().actions)
    controller.update(withPins('ready'))
    controller.update(withPins('ready'))
    expect(tray.menus.length).toBe(1)
    const unpinned = withPins('ready')
    controller.update({ ...unpinned, profiles: unpinned.profiles.map((p) => ({ ...p, pinned: false })) })
    expect(tray.menus.length).toBe(2)
  })

  it("pins through the core's commands and hands a refusal's sentence on", async () => {
    const refusal = 'Pinning gpt-oss needs 812 MiB more than the 0.4 GiB free beside qwen and embed; unpin another profile or lower -ngl.'
    const calls: string[] = []
    const failures: string[] = []
    const answer = (id: string) => (id === 'gpt-oss' ? { ok: false as const, error: { kind: 'fit', sentence: refusal } } : { ok: true })
    const actions = trayActionsFor({
      handlers: {
        'profiles:pin': async (id: string) => (calls.push(`pin:${id}`), answer(id)),
        'profiles:unpin': async (id: string) => (calls.push(`unpin:${id}`), answer(id)),
      } as never,
      openDashboard: () => {},
      quit: () => {},
      onStartFailed: () => {},
      onRestartFailed: () => {},
      onPinFailed: (id, pinned, error) => failures.push(`${pinned ? 'pin' : 'unpin'} ${id}: ${error}`),
      log: { error: () => {}, warn: () => {}, info: () => {} } as never,
    })
    actions.setPinned('embed', false)
    actions.setPinned('gpt-oss', true)
    await vi.waitFor(() => expect(failures).toHaveLength(1))
    expect(calls).toEqual(['unpin:embed', 'pin:gpt-oss'])
    expect(failures).toEqual([`pin gpt-oss: ${refusal}`])
  })
})

describe('TrayController', () => {
  it('touches the OS tray only when the icon, tooltip or menu changes', () => {
    const tray = new FakeTray(null)
    const controller = new TrayController(tray as never, (state) => ({ state }) as never, recorder().actions)
    controller.update(view('loading'))
    controller.update(view('loading'))
    expect([tray.images.length, tray.tooltips.length, tray.menus.length]).toEqual([1, 1, 1])
    // A new rate each second changes only the tooltip: the open menu is left alone.
    controller.update(view('ready', { tokensPerSecond: 20 }))
    controller.update(view('ready', { tokensPerSecond: 21 }))
    controller.update(view('ready', { tokensPerSecond: 21 }))
    expect(tray.images).toEqual([{ state: 'loading' }, { state: 'ready' }])
    expect(tray.tooltips.length).toBe(3)
    expect(tray.menus.length).toBe(2)
  })

  it("a live warning's changing figures do not replace the open menu; a different warning does", () => {
    const tray = new FakeTray(null)
    const controller = new TrayController(tray as never, (state) => ({ state }) as never, recorder().actions)
    const heavy = (share: number) => ({
      id: 'live.heavy-apps@qwen',
      level: 'warn' as const,
      headline: `Discord.exe uses ${share}% of the CPU.`,
      reason: '',
      fix: null,
    })
    controller.update(view('ready', { warnings: [heavy(30)] }))
    controller.update(view('ready', { warnings: [heavy(31)] }))
    expect(tray.menus.length).toBe(1)
    controller.update(view('ready', { warnings: [{ ...heavy(31), id: 'live.vram-low@qwen' }] }))
    controller.update(view('ready', { warnings: [] }))
    expect(tray.menus.length).toBe(3)
  })
})

describe('tray popover position', () => {
  const screenBounds = { x: 0, y: 0, width: 1920, height: 1080 }
  const size = { width: 360, height: 560 }
  const inside = (p: { x: number; y: number }, area: { x: number; y: number; width: number; height: number }) =>
    p.x >= area.x && p.y >= area.y && p.x + size.width <= area.x + area.width && p.y + size.height <= area.y + area.height

  it('sits above a bottom taskbar, below a top one, beside a side one, by the icon', () => {
    expect(popoverPosition({ x: 1000, y: 1048, width: 24, height: 32 }, size, { ...screenBounds, height: 1040 })).toEqual({
      x: 832,
      y: 472,
    })
    expect(popoverPosition({ x: 1000, y: 4, width: 24, height: 32 }, size, { ...screenBounds, y: 40, height: 1040 })).toEqual({
      x: 832,
      y: 48,
    })
    expect(popoverPosition({ x: 8, y: 900, width: 32, height: 24 }, size, { ...screenBounds, x: 48, width: 1872 })).toEqual({
      x: 56,
      y: 512,
    })
    expect(popoverPosition({ x: 1880, y: 300, width: 32, height: 24 }, size, { ...screenBounds, width: 1872 })).toEqual({ x: 1504, y: 32 })
  })

  it('without tray bounds (some Linux desktops), goes to the bottom-right corner', () => {
    expect(popoverPosition({ x: 0, y: 0, width: 0, height: 0 }, size, { ...screenBounds, height: 1040 })).toEqual({ x: 1552, y: 472 })
  })

  it('stays inside the work area wherever the icon is, on any display (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.record({
          x: fc.integer({ min: -3000, max: 3000 }),
          y: fc.integer({ min: -2000, max: 2000 }),
          width: fc.integer({ min: 800, max: 4000 }),
          height: fc.integer({ min: 700, max: 3000 }),
        }),
        fc.record({
          dx: fc.integer({ min: -100, max: 4100 }),
          dy: fc.integer({ min: -100, max: 3100 }),
          size: fc.integer({ min: 0, max: 48 }),
        }),
        (area, icon) => {
          const p = popoverPosition({ x: area.x + icon.dx, y: area.y + icon.dy, width: icon.size, height: icon.size }, size, area)
          expect(inside(p, area)).toBe(true)
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('TrayPopover', () => {
  it('a click toggles it; the click that blurred it does not reopen it, a later one does', () => {
    let now = 1000
    const visibility: boolean[] = []
    const popover = new TrayPopover({
      preload: '/p.js',
      url: 'app://dashboard/index.html',
      packaged: true,
      onCreated: () => undefined,
      onVisibility: (v) => visibility.push(v),
      now: () => now,
    })
    const icon = { x: 1800, y: 1048, width: 24, height: 32 }
    popover.toggle(icon)
    expect(popover.isVisible()).toBe(true)
    popover.toggle(icon)
    expect(popover.isVisible()).toBe(false)
    popover.toggle(icon)
    const win = FakeBrowserWindow.instances.at(-1)!
    win.blur()
    now += 100
    popover.toggle(icon)
    expect(popover.isVisible()).toBe(false)
    now += 1000
    popover.toggle(icon)
    expect(popover.isVisible()).toBe(true)
    expect(visibility).toEqual([true, false, true, false, true])
    expect(FakeBrowserWindow.instances.filter((w) => w === win).length).toBe(1)
  })
})

describe('a switch that waits for running requests, in the tray menu', () => {
  const pending = (estimateS: number): TrayView['pendingSwitch'] => ({
    profileId: 'gpt-oss',
    fromProfileId: 'qwen',
    runningRequests: 1,
    heldRequests: 1,
    withinS: 60,
    estimateS,
    when: `After 1 running request, about ${estimateS} s.`,
    sentence: `Profile "gpt-oss" replaces "qwen" after 1 running request, about ${estimateS} s; "Switch now" cuts them.`,
  })

  it('says when with the profile\'s name, offers "Switch now" and "Keep", and a click on the running profile withdraws the switch', () => {
    const { actions, log } = recorder()
    const template = buildTrayTemplate(view('ready', { pendingSwitch: pending(20) }), actions)
    expect(item(template, 'pending:gpt-oss:1')).toMatchObject({
      label: 'Switching to GPT-OSS 20B after 1 running request, about 20 s.',
      enabled: false,
    })
    click(item(template, 'switch-now'))
    click(item(template, 'profile:qwen'))
    expect(item(template, 'keep-running').label).toBe('Keep Qwen3 30B A3B')
    click(item(template, 'keep-running'))
    expect(log).toEqual(['switch-now', 'start:qwen', 'start:qwen'])
    // Without a waiting switch, the running profile's radio does nothing and there is neither "Switch now" nor "Keep".
    const calm = buildTrayTemplate(view('ready'), actions)
    click(item(calm, 'profile:qwen'))
    expect(log).toEqual(['switch-now', 'start:qwen', 'start:qwen'])
    expect(calm.some((i) => i.id === 'switch-now' || i.id === 'keep-running')).toBe(false)
  })

  it('does not replace an open menu as the estimate counts down', () => {
    const { actions } = recorder()
    const key = (s: number): string => templateKey(buildTrayTemplate(view('ready', { pendingSwitch: pending(s) }), actions))
    expect(key(19)).toBe(key(20))
    expect(key(20)).not.toBe(templateKey(buildTrayTemplate(view('ready'), actions)))
  })
})
