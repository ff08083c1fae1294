import fc from 'fast-check'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { COMMAND_NAMES, EVENT_NAMES, type CommandChannels, type CommandName } from '../app/contract/commands'
import { fake, FakeFrame, FakeWebContents, resetFakeElectron } from '../test/support/main/fake-electron'

vi.mock('electron', async () => (await import('../test/support/main/fake-electron')).fakeElectronModule())

const { DashboardSenders, forwardEvents, registerCommandHandlers } = await import('./ipc-main')
const { IPC_ARGS } = await import('./ipc-schemas')
const { isDashboardUrl } = await import('./dashboard-url')

/** One valid call per channel (what the dashboard really sends). */
const VALID: { readonly [C in CommandName]: Parameters<CommandChannels[C]> } = {
  'server:start': ['qwen3-30b-a3b'],
  'server:stop': [],
  'server:switch-now': [],
  'server:restart': [],
  'server:status': [],
  'server:logs': [2000],
  'server:pinned-logs': ['nomic-embed', 2000],
  'snapshot:latest': [],
  'generation:history': [],
  'history:overview': [{ sinceMs: 1_764_000_000_000, profileId: 'qwen3-30b-a3b' }],
  'history:export': ['csv'],
  'dashboard:visible': [true],
  'dashboard:open': [],
  'profiles:list': [],
  'profiles:get': ['gpt-oss-20b'],
  'profiles:check': ['gpt-oss-20b'],
  'profiles:update': [
    'gpt-oss-20b',
    {
      name: 'GPT-OSS 20B',
      settings: { nCpuMoe: 12, ctxSize: 32768, flashAttn: 'on' },
      draftModel: null,
      env: { CUDA_VISIBLE_DEVICES: '0' },
    },
  ],
  'profiles:choose-file': ['gpt-oss-20b', 'model'],
  'profiles:import': ['llama-server -m model.gguf -ngl 99 --n-cpu-moe 20', null],
  'profiles:set-command': ['gpt-oss-20b', 'llama-server -m model.gguf -c 8192'],
  'profiles:export': ['gpt-oss-20b', 'powershell'],
  'profiles:duplicate': ['gpt-oss-20b'],
  'profiles:delete': ['gpt-oss-20b'],
  'profiles:undo-delete': ['gpt-oss-20b'],
  'profiles:apply-flag-fixes': ['gpt-oss-20b'],
  'profiles:pin': ['embed'],
  'profiles:unpin': ['embed'],
  'profiles:discover': [],
  'profiles:create-discovered': ['b-0123456789', 'm-abcdef0123', null, 'Qwen3.6 35B'],
  'fit:estimate': ['qwen36-4060'],
  'fit:llama-plan': ['qwen36-4060'],
  'bench:run': [['plain', 'draft'], { runs: 3, tokens: 128 }],
  'bench:cancel': [],
  'bench:history': [20],
  'bench:tune': ['plain', { runs: 2, tokens: 128, saveAs: 'plain (tuned)' }],
  'bench:export': ['2026-11-30T10:52:43.685Z', 'markdown'],
  'engines:install': [{ backend: 'auto', tag: null }],
  'engines:plan': [{ backend: 'cuda-12', tag: 'v0.5.0' }],
  'engines:list': [],
  'engines:remove': ['v0.5.0-cuda-12', false],
  'engines:check-update': [],
  'models:pull': ['unsloth/Qwen3.6-35B-A3B-GGUF:Q4_K_M', null],
  'models:recipes': [],
  'models:apply-recipe': ['qwen36-35b-a3b-8gb'],
  'engines:update-notice': [],
  'engines:update': ['tiny'],
  'engines:rollback': ['tiny'],
  'warnings:apply-fix': ['vram-headroom:gpt-oss-20b'],
  'warnings:mute': ['live.heavy-apps@gpt-oss-20b'],
  'warnings:muted': ['gpt-oss-20b'],
  'warnings:unmute': ['gpt-oss-20b', 'lint.duplicate-flag:-vhad'],
  'settings:get': [],
  'settings:set': [{ notifications: false, vramHeadroomMiB: 2048 }],
  'shell:open-logs-folder': [],
  'diagnostics:summary': [],
  'diagnostics:save': [],
}

/** One invalid call per channel that a careless or compromised page might send. */
const INVALID: { readonly [C in CommandName]: unknown[] } = {
  'server:start': ['C:\\llama\\llama-server.exe'],
  'server:stop': ['now'],
  'server:switch-now': ['beta'],
  'server:restart': [{ force: true }],
  'server:status': [1],
  'server:logs': [-1],
  'server:pinned-logs': ['../logs', 2000],
  'snapshot:latest': [null],
  'generation:history': [{ since: 0 }],
  'history:overview': [{ sinceMs: -1, path: '/etc' }],
  'history:export': ['xlsx'],
  'dashboard:visible': ['yes'],
  'dashboard:open': ['https://example.com/'],
  'profiles:list': [{}],
  'profiles:get': ['../profiles'],
  'profiles:check': [42],
  'profiles:update': ['gpt-oss-20b', { binary: 'C:\\Windows\\System32\\cmd.exe' }],
  'profiles:choose-file': ['gpt-oss-20b', 'C:\\evil.exe'],
  'profiles:import': ['', null],
  'profiles:set-command': ['gpt-oss-20b', ''],
  'profiles:export': ['gpt-oss-20b', 'sh -c'],
  'profiles:duplicate': [],
  'profiles:delete': ['*'],
  'profiles:undo-delete': [null],
  'profiles:apply-flag-fixes': ['UPPER'],
  'profiles:pin': ['UPPER'],
  'profiles:unpin': [''],
  'profiles:discover': ['/home/me/models'],
  'profiles:create-discovered': ['/usr/local/bin/llama-server', 'm-abcdef0123', null, null],
  'fit:estimate': ['../../etc/passwd'],
  'fit:llama-plan': [''.padEnd(300, 'x')],
  'bench:run': [['plain'], { runs: 3, tokens: 128, exe: '/bin/sh' }],
  'bench:cancel': ['now'],
  'bench:history': [-1],
  'bench:tune': ['plain', { runs: 2, tokens: 128, saveAs: null, radius: 64 }],
  'bench:export': ['../../etc/passwd', 'markdown'],
  'engines:install': [{ backend: 'cuda-11', tag: '../x' }],
  'engines:plan': [{ backend: 'auto', tag: null, path: '/tmp' }],
  'engines:list': [1],
  'engines:remove': ['../../etc-cpu', true],
  'engines:check-update': ['now'],
  'models:pull': ['../etc/passwd', '../x.gguf'],
  'models:recipes': ['all'],
  'models:apply-recipe': ['../../etc/passwd'],
  'engines:update-notice': [true],
  'engines:update': ['../x'],
  'engines:rollback': [''],
  'warnings:apply-fix': [''],
  'warnings:mute': [''],
  'warnings:muted': ['../profiles'],
  'warnings:unmute': ['gpt-oss-20b', '../advisor-mutes.json'],
  'settings:get': ['all'],
  'settings:set': [{ pollIntervalMs: 1 }],
  'shell:open-logs-folder': ['/etc'],
  'diagnostics:summary': [{ unredacted: true }],
  'diagnostics:save': ['/home/me/diagnostics.zip'],
}

function handlerTable(): { handlers: CommandChannels; calls: { channel: string; args: unknown[] }[] } {
  const calls: { channel: string; args: unknown[] }[] = []
  const handlers = Object.fromEntries(
    COMMAND_NAMES.map((channel) => [
      channel,
      async (...args: unknown[]) => {
        calls.push({ channel, args })
        return { channel }
      },
    ]),
  ) as unknown as CommandChannels
  return { handlers, calls }
}

let dashboard: FakeWebContents
let calls: { channel: string; args: unknown[] }[]
const warnings: string[] = []

beforeEach(() => {
  resetFakeElectron()
  warnings.length = 0
  const table = handlerTable()
  calls = table.calls
  const senders = new DashboardSenders((url) => isDashboardUrl(url, undefined, true))
  dashboard = new FakeWebContents('app://dashboard/index.html')
  senders.trust(dashboard as never)
  registerCommandHandlers(table.handlers, IPC_ARGS, senders, { warn: (m) => void warnings.push(m) })
})

describe('the IPC schema table', () => {
  it('covers every command channel, and the examples cover every channel', () => {
    expect(Object.keys(IPC_ARGS).sort()).toEqual([...COMMAND_NAMES].sort())
    expect(Object.keys(VALID).sort()).toEqual([...COMMAND_NAMES].sort())
    expect(Object.keys(INVALID).sort()).toEqual([...COMMAND_NAMES].sort())
  })

  it('registers a handler for every channel', () => {
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual([...COMMAND_NAMES].sort())
  })
})

describe.each(COMMAND_NAMES.map((c) => [c]))('%s', (channel) => {
  it('answers the dashboard with valid arguments', async () => {
    await expect(fake.ipcMain.invoke(channel, dashboard, dashboard.mainFrame, ...VALID[channel])).resolves.toEqual({ channel })
    expect(calls).toEqual([{ channel, args: VALID[channel] }])
  })

  it('refuses invalid arguments before the core sees them', async () => {
    await expect(fake.ipcMain.invoke(channel, dashboard, dashboard.mainFrame, ...INVALID[channel])).rejects.toThrow(/invalid arguments/)
    await expect(fake.ipcMain.invoke(channel, dashboard, dashboard.mainFrame, ...VALID[channel], 'extra')).rejects.toThrow(
      /invalid arguments/,
    )
    expect(calls).toEqual([])
    expect(warnings.length).toBe(2)
  })

  it('refuses a foreign window, a sub-frame, another origin and a vanished frame', async () => {
    const foreign = new FakeWebContents('app://dashboard/index.html')
    await expect(fake.ipcMain.invoke(channel, foreign, foreign.mainFrame, ...VALID[channel])).rejects.toThrow(
      /refused \(not the dashboard window\)/,
    )
    const subFrame = new FakeFrame('app://dashboard/index.html', dashboard.mainFrame)
    await expect(fake.ipcMain.invoke(channel, dashboard, subFrame, ...VALID[channel])).rejects.toThrow(/not the main frame/)
    const navigated = new FakeFrame('https://example.com/')
    await expect(fake.ipcMain.invoke(channel, dashboard, navigated, ...VALID[channel])).rejects.toThrow(/not the dashboard page/)
    await expect(fake.ipcMain.invoke(channel, dashboard, null, ...VALID[channel])).rejects.toThrow(/frame is gone/)
    expect(calls).toEqual([])
  })
})

describe('sender trust', () => {
  it('ends when the dashboard contents are destroyed (ids are reused by Chromium)', async () => {
    dashboard.destroy()
    await expect(fake.ipcMain.invoke('server:status', dashboard, dashboard.mainFrame)).rejects.toThrow(/not the dashboard window/)
  })

  it('accepts the dev server origin only in unpackaged runs', () => {
    expect(isDashboardUrl('http://localhost:5173/', 'http://localhost:5173', false)).toBe(true)
    expect(isDashboardUrl('http://localhost:5173/', 'http://localhost:5173', true)).toBe(false)
    expect(isDashboardUrl('http://localhost:5174/', 'http://localhost:5173', false)).toBe(false)
    expect(isDashboardUrl('app://dashboard.evil/index.html', undefined, true)).toBe(false)
    expect(isDashboardUrl('not a url', undefined, true)).toBe(false)
  })
})

describe('arbitrary payloads', () => {
  it('reach the core only when they match the channel schema (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COMMAND_NAMES), fc.array(fc.anything(), { maxLength: 3 }), async (channel, args) => {
        calls.length = 0
        const accepted = IPC_ARGS[channel].safeParse(args).success
        const outcome = await fake.ipcMain.invoke(channel, dashboard, dashboard.mainFrame, ...args).then(
          () => 'ok',
          () => 'refused',
        )
        expect(outcome).toBe(accepted ? 'ok' : 'refused')
        expect(calls.length).toBe(accepted ? 1 : 0)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('profiles:import options', () => {
  it("takes the CLI's --force and --replace as an options object, nothing else", () => {
    const accepts = (...args: unknown[]): boolean => IPC_ARGS['profiles:import'].safeParse(args).success
    expect(accepts('llama-server -m a.gguf', null)).toBe(true)
    expect(accepts('llama-server -m a.gguf', 'a', { force: true })).toBe(true)
    expect(accepts('llama-server -m a.gguf', null, { replace: true, force: false })).toBe(true)
    expect(accepts('llama-server -m a.gguf', null, { force: 'yes' })).toBe(false)
    expect(accepts('llama-server -m a.gguf', null, { force: true, binary: '/bin/sh' })).toBe(false)
  })
})

describe('event forwarding', () => {
  it('pushes every core event to the dashboard, and nothing to a destroyed or missing one', () => {
    const listeners = new Map<string, (...args: unknown[]) => void>()
    const source = {
      on: (event: string, listener: (...args: unknown[]) => void) => (listeners.set(event, listener), () => void listeners.delete(event)),
    }
    let target: FakeWebContents | null = dashboard
    const off = forwardEvents(source as never, () => target as never)
    expect([...listeners.keys()].sort()).toEqual([...EVENT_NAMES].sort())
    for (const name of EVENT_NAMES) listeners.get(name)!({ from: name })
    expect(dashboard.sent).toEqual(EVENT_NAMES.map((channel) => ({ channel, args: [{ from: channel }] })))
    dashboard.destroyed = true
    listeners.get('snapshot')!({})
    target = null
    listeners.get('snapshot')!({})
    expect(dashboard.sent.length).toBe(EVENT_NAMES.length)
    off()
    expect(listeners.size).toBe(0)
  })
})
