import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import {
  COMMAND_NAMES,
  EVENT_NAMES,
  type CommandChannels,
  type CommandName,
  type EventChannels,
  type EventName,
} from '../app/contract/commands'
import type { IpcArgsSchemas } from './ipc-schemas'

/**
 * The only place main touches ipcMain and webContents.send. Every command is
 * answered only for the dashboard's own main frame, on the dashboard's own
 * origin, with arguments that pass the channel's zod schema (the renderer is
 * untrusted). Anything else is refused before it reaches the core.
 */

/** The WebContents allowed to call main: the dashboard windows main created, and only their main frame. */
export class DashboardSenders {
  private readonly ids = new Set<number>()

  constructor(private readonly isDashboardUrl: (url: string) => boolean) {}

  trust(contents: WebContents): void {
    const id = contents.id
    this.ids.add(id)
    contents.once('destroyed', () => this.ids.delete(id))
  }

  /** True for the contents of a window main created (and not yet destroyed). */
  has(contents: Pick<WebContents, 'id'>): boolean {
    return this.ids.has(contents.id)
  }

  /** Why this sender is refused, or null when it is the dashboard. */
  refusal(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>): string | null {
    if (!this.ids.has(event.sender.id)) return 'not the dashboard window'
    const frame = event.senderFrame
    if (!frame) return 'the sending frame is gone'
    if (frame.parent !== null) return 'not the main frame'
    if (!this.isDashboardUrl(frame.url)) return `not the dashboard page (${frame.url.slice(0, 100)})`
    return null
  }
}

export interface IpcLog {
  warn(message: string): void
}

/** Registers every command channel; returns a function that removes them all. */
export function registerCommandHandlers(
  handlers: CommandChannels,
  schemas: IpcArgsSchemas,
  senders: DashboardSenders,
  log: IpcLog,
): () => void {
  for (const channel of COMMAND_NAMES) {
    ipcMain.handle(channel, (event, ...raw: unknown[]) => dispatch(channel, event, raw, handlers, schemas, senders, log))
  }
  return () => {
    for (const channel of COMMAND_NAMES) ipcMain.removeHandler(channel)
  }
}

async function dispatch(
  channel: CommandName,
  event: IpcMainInvokeEvent,
  raw: unknown[],
  handlers: CommandChannels,
  schemas: IpcArgsSchemas,
  senders: DashboardSenders,
  log: IpcLog,
): Promise<unknown> {
  const refusal = senders.refusal(event)
  if (refusal) {
    log.warn(`ipc ${channel} refused: ${refusal}`)
    throw new Error(`${channel}: refused (${refusal})`)
  }
  const parsed = schemas[channel].safeParse(raw)
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')
    log.warn(`ipc ${channel} invalid arguments: ${detail}`)
    throw new Error(`${channel}: invalid arguments (${detail})`)
  }
  // The schema table is typed per channel, so parsed.data is this channel's argument tuple.
  const handler = handlers[channel] as (...args: readonly unknown[]) => Promise<unknown>
  return handler(...(parsed.data as readonly unknown[]))
}

export function send<E extends EventName>(contents: WebContents, channel: E, ...args: Parameters<EventChannels[E]>): void {
  if (contents.isDestroyed()) return
  contents.send(channel, ...args)
}

export interface EventSource {
  on<E extends EventName>(event: E, listener: EventChannels[E]): () => void
}

/** Pushes every core event to the dashboard while it exists; returns the unsubscribe. */
export function forwardEvents(source: EventSource, target: () => WebContents | null): () => void {
  const offs = EVENT_NAMES.map((channel) => forwardOne(source, target, channel))
  return () => offs.forEach((off) => off())
}

function forwardOne<E extends EventName>(source: EventSource, target: () => WebContents | null, channel: E): () => void {
  const listener = ((...args: Parameters<EventChannels[E]>) => {
    const contents = target()
    if (contents) send(contents, channel, ...args)
  }) as EventChannels[E]
  return source.on(channel, listener)
}
