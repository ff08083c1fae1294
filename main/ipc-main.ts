import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import type { z } from 'zod'
import type { CommandChannels, CommandName, EventChannels, EventName } from '../app/contract/commands'

/**
 * The only place main touches ipcMain/webContents.send: every channel is typed
 * by the contract, every sender is checked against the windows we created, and
 * every argument is validated with zod (the renderer is untrusted).
 */
const trustedSenders = new Set<number>()

export function trustWebContents(contents: WebContents): void {
  const id = contents.id
  trustedSenders.add(id)
  contents.once('destroyed', () => trustedSenders.delete(id))
}

export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender'>): boolean {
  return trustedSenders.has(event.sender.id)
}

export function handle<C extends CommandName>(
  channel: C,
  argsSchema: z.ZodType<Parameters<CommandChannels[C]>>,
  handler: (...args: Parameters<CommandChannels[C]>) => ReturnType<CommandChannels[C]>,
): void {
  ipcMain.handle(channel, async (event, ...raw: unknown[]) => {
    if (!isTrustedSender(event)) throw new Error(`ipc ${channel}: sender not trusted`)
    const parsed = argsSchema.safeParse(raw)
    if (!parsed.success) throw new Error(`ipc ${channel}: invalid arguments`)
    return handler(...parsed.data)
  })
}

export function send<E extends EventName>(contents: WebContents, channel: E, ...args: Parameters<EventChannels[E]>): void {
  if (contents.isDestroyed()) return
  contents.send(channel, ...args)
}
