import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { COMMAND_NAMES, commandMethodName, EVENT_NAMES, eventMethodName } from '../app/contract/commands'

// Sandboxed preload: 'electron' is its only runtime import besides the pure
// contract helpers, bundled into this one file. It exposes one function per
// channel of the contract (never ipcRenderer itself), and swallows the event
// object so the page never sees it.
const api: Record<string, unknown> = {}
for (const channel of COMMAND_NAMES) {
  api[commandMethodName(channel)] = (...args: unknown[]) => ipcRenderer.invoke(channel, ...args)
}
for (const channel of EVENT_NAMES) {
  api[eventMethodName(channel)] = (listener: (...args: unknown[]) => void) => {
    const wrapped = (_event: IpcRendererEvent, ...args: unknown[]): void => {
      try {
        listener(...args)
      } catch (err) {
        console.error(err)
      }
    }
    ipcRenderer.on(channel, wrapped)
    return () => void ipcRenderer.removeListener(channel, wrapped)
  }
}

contextBridge.exposeInMainWorld('llamaTray', Object.freeze(api))
