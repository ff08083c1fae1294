import type { MenuItemConstructorOptions } from 'electron'
import type { ServerStatus } from '../app/contract/server-state'

export interface TrayActions {
  readonly openDashboard: () => void
  readonly stop: () => void
  readonly restart: () => void
  readonly quit: () => void
}

/** The tray menu for a given server state (pure: rebuilt on every state change). */
export function buildTrayTemplate(status: ServerStatus, actions: TrayActions): MenuItemConstructorOptions[] {
  const running = status.state === 'starting' || status.state === 'loading' || status.state === 'ready'
  const label = status.port !== null && status.state === 'ready' ? `Ready on port ${status.port}` : `Server: ${status.state}`
  return [
    { label, enabled: false },
    { type: 'separator' },
    { label: 'Open dashboard', click: actions.openDashboard },
    { label: 'Restart server', enabled: status.profileId !== null && status.state !== 'stopping', click: actions.restart },
    { label: 'Stop server', enabled: running || status.state === 'backoff', click: actions.stop },
    { type: 'separator' },
    { label: 'Quit Llama Tray', click: actions.quit },
  ]
}

export function trayTooltip(status: ServerStatus): string {
  return status.lastExit?.reason && (status.state === 'errored' || status.state === 'crashloop')
    ? `Llama Tray: ${status.state}: ${status.lastExit.reason}`
    : `Llama Tray: ${status.state}`
}
