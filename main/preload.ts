import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { CommandChannels, CommandName, EventChannels, EventName, LlamaTrayApi } from '../app/contract/commands'

// Sandboxed preload: only 'electron' at runtime, everything else is types.
function invoke<C extends CommandName>(channel: C, ...args: Parameters<CommandChannels[C]>): ReturnType<CommandChannels[C]> {
  return ipcRenderer.invoke(channel, ...args) as ReturnType<CommandChannels[C]>
}

function subscribe<E extends EventName>(channel: E, listener: EventChannels[E]): () => void {
  const wrapped = (_event: IpcRendererEvent, ...args: Parameters<EventChannels[E]>): void => {
    try {
      ;(listener as (...a: Parameters<EventChannels[E]>) => void)(...args)
    } catch (err) {
      console.error(err)
    }
  }
  ipcRenderer.on(channel, wrapped as (event: IpcRendererEvent, ...args: unknown[]) => void)
  return () => void ipcRenderer.removeListener(channel, wrapped as (event: IpcRendererEvent, ...args: unknown[]) => void)
}

const api: LlamaTrayApi = {
  startServer: (profileId) => invoke('server:start', profileId),
  stopServer: () => invoke('server:stop'),
  restartServer: () => invoke('server:restart'),
  getStatus: () => invoke('server:status'),
  getLogs: (maxLines) => invoke('server:logs', maxLines),
  onStateChanged: (listener) => subscribe('server:state-changed', listener),
  onLog: (listener) => subscribe('server:log', listener),
  onSnapshot: (listener) => subscribe('snapshot', listener),
}

contextBridge.exposeInMainWorld('llamaTray', api)
