import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { COMMAND_NAMES, type EventChannels, type EventName } from '../../app/contract/commands'
import type { ServerStatus } from '../../app/contract/server-state'
import type { Snapshot } from '../../app/contract/snapshot'
import { LlamaTrayCore } from '../../app/core/llama-tray-core'
import { installBridge } from './bridge'
import { stoppedStatus } from './scripted-states'

export interface ScriptedDashboard {
  readonly core: LlamaTrayCore
  readonly page: Page
  /** The controls the page used, in order: "server:start(\"id\")", "server:stop()", "dashboard:open()". */
  readonly calls: readonly string[]
  /** Pushes a server state and a snapshot as the core would; later queries answer with them. */
  show(status: ServerStatus, snapshot: Snapshot | null, logs?: readonly string[]): Promise<void>
  close(): Promise<void>
}

/** Channels answered from the script, not the core: the server and what it reports. */
const SCRIPTED = new Set([
  'server:status',
  'snapshot:latest',
  'server:logs',
  'server:start',
  'server:stop',
  'server:restart',
  'dashboard:visible',
  'dashboard:open',
])
/** Scripted channels that are controls: the test reads what the page asked for. */
const RECORDED = new Set(['server:start', 'server:stop', 'server:restart', 'dashboard:open'])
/** Core events that reach the page: what the profiles, settings and engine commands change or report. */
const FORWARDED: readonly EventName[] = ['profiles:changed', 'settings:changed', 'engines:progress']

/**
 * The built dashboard over a real LlamaTrayCore for profiles, settings, fit and
 * bench history, while the server's state and snapshots are scripted: views of
 * a running, warning or failed server without starting llama-server.
 */
export async function openScriptedDashboard(
  browser: Browser,
  url: string,
  view: { width: number; height: number; colorScheme: 'light' | 'dark' },
): Promise<ScriptedDashboard> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-scripted-'))
  const core = await LlamaTrayCore.create({ home, telemetry: null })
  const context = await browser.newContext({ viewport: { width: view.width, height: view.height }, colorScheme: view.colorScheme })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && !m.text().includes("'frame-ancestors' is ignored") && errors.push(m.text()))
  let status = stoppedStatus()
  let snapshot: Snapshot | null = null
  let logs: readonly string[] = []
  const calls: string[] = []
  const handlers = core.handlers as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  const emit = await installBridge(page, async (channel, args) => {
    if (!(COMMAND_NAMES as readonly string[]).includes(channel)) throw new Error(`unknown channel ${channel}`)
    if (RECORDED.has(channel)) calls.push(`${channel}(${args.map((a) => JSON.stringify(a)).join(', ')})`)
    if (channel === 'server:status' || channel === 'server:stop') return status
    if (channel === 'snapshot:latest') return snapshot
    if (channel === 'server:logs') return logs
    if (channel === 'server:start' || channel === 'server:restart') return { ok: true, value: status }
    if (SCRIPTED.has(channel)) return undefined
    return handlers[channel]?.(...args)
  })
  const offs = FORWARDED.map((e) =>
    core.on(e, ((payload: never) => void emit(e, payload).catch(() => undefined)) as EventChannels[typeof e]),
  )
  await page.goto(url)
  return {
    core,
    page,
    calls,
    show: async (s, snap, lines) => {
      status = s
      snapshot = snap
      if (lines) logs = lines
      await emit('server:state-changed', s)
      if (snap) await emit('snapshot', snap)
      if (lines) await emit('server:log', lines)
    },
    close: async () => {
      for (const off of offs) off()
      await context.close()
      await core.dispose()
      rmSync(home, { recursive: true, force: true })
      if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`)
    },
  }
}
