import type { Page } from 'playwright-core'
import {
  COMMAND_NAMES,
  commandMethodName,
  EVENT_NAMES,
  eventMethodName,
  type EventChannels,
  type EventName,
} from '../../app/contract/commands'
import type { LlamaTrayCore } from '../../app/core/llama-tray-core'

type Invoke = (channel: string, args: unknown[]) => Promise<unknown>

interface BridgeNames {
  readonly commands: readonly (readonly [string, string])[]
  readonly events: readonly (readonly [string, string])[]
}

/**
 * Runs in the page before its scripts: builds window.llamaTray as the preload
 * does (one function per command, one subscription per event) over a Playwright
 * binding, and window.__llamaTrayEmit for the test process to push events.
 */
function pageSide(names: BridgeNames): void {
  type Listener = (payload: unknown) => void
  const w = globalThis as unknown as Record<string, unknown>
  const invoke = w.__llamaTrayInvoke as (channel: string, args: unknown[]) => Promise<unknown>
  const listeners = new Map<string, Set<Listener>>()
  const api: Record<string, unknown> = {}
  for (const [channel, method] of names.commands) api[method] = (...args: unknown[]) => invoke(channel, args)
  for (const [event, method] of names.events) {
    listeners.set(event, new Set())
    api[method] = (listener: Listener) => {
      listeners.get(event)?.add(listener)
      return () => listeners.get(event)?.delete(listener)
    }
  }
  w.llamaTray = Object.freeze(api)
  w.__llamaTrayEmit = (event: string, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload)
  }
}

const NAMES: BridgeNames = {
  commands: COMMAND_NAMES.map((c) => [c, commandMethodName(c)] as const),
  events: EVENT_NAMES.map((e) => [e, eventMethodName(e)] as const),
}

/** Installs window.llamaTray in the page (call before page.goto); returns the event pusher. */
export async function installBridge(
  page: Page,
  invoke: Invoke,
): Promise<<E extends EventName>(event: E, payload: Parameters<EventChannels[E]>[0]) => Promise<void>> {
  await page.exposeBinding('__llamaTrayInvoke', (_source, channel: string, args: unknown[]) => invoke(channel, args))
  await page.addInitScript(pageSide, NAMES)
  return async (event, payload) => {
    await page.evaluate(
      ([e, p]) => (globalThis as unknown as { __llamaTrayEmit: (e: string, p: unknown) => void }).__llamaTrayEmit(e as string, p),
      [event, payload] as const,
    )
  }
}

/**
 * Bridges the page to a real LlamaTrayCore: commands go to core.handlers,
 * every core event is pushed to the page in order (as Electron's IPC would).
 * Returns a function that stops forwarding.
 */
export async function bridgeCore(page: Page, core: LlamaTrayCore): Promise<() => void> {
  const handlers = core.handlers as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  const emit = await installBridge(page, async (channel, args) => {
    const handler = handlers[channel]
    if (!handler || !(COMMAND_NAMES as readonly string[]).includes(channel)) throw new Error(`unknown channel ${channel}`)
    return handler(...args)
  })
  let chain = Promise.resolve()
  const forward = <E extends EventName>(event: E) =>
    core.on(event, ((payload: unknown) => {
      chain = chain.then(() => emit(event, payload as never)).catch(() => undefined) // a closed page just stops listening
    }) as EventChannels[E])
  const offs = EVENT_NAMES.map((e) => forward(e))
  return () => {
    for (const off of offs) off()
  }
}
