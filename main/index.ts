import { app, BrowserWindow, Menu, nativeImage, Tray } from 'electron'
import { join } from 'node:path'
import { ServerSupervisor } from '../app/supervisor/supervisor'
import { registerIpcHandlers } from './ipc-handlers'
import { send, trustWebContents } from './ipc-main'
import { buildTrayTemplate, trayTooltip } from './tray-menu'
import { createDashboardWindow } from './window'

// Composition root: wiring only, no logic.
app.disableHardwareAcceleration() // the dashboard must not take VRAM from the model
if (!app.requestSingleInstanceLock()) app.quit()

let tray: Tray | null = null
let dashboard: BrowserWindow | null = null
const supervisor = new ServerSupervisor({ home: app.getPath('userData') })

function openDashboard(): void {
  if (dashboard && !dashboard.isDestroyed()) return dashboard.focus()
  dashboard = createDashboardWindow()
  trustWebContents(dashboard.webContents)
  dashboard.on('closed', () => (dashboard = null))
}

function refreshTray(): void {
  const status = supervisor.getStatus()
  tray?.setToolTip(trayTooltip(status))
  tray?.setContextMenu(
    Menu.buildFromTemplate(
      buildTrayTemplate(status, {
        openDashboard,
        stop: () => void supervisor.stop(),
        restart: () => void supervisor.restart().catch(() => undefined),
        quit: () => app.quit(),
      }),
    ),
  )
}

app.on('second-instance', openDashboard)
app.on('window-all-closed', () => {
  // stay in the tray
})

let quitting = false
app.on('before-quit', (event) => {
  if (quitting) return
  event.preventDefault()
  quitting = true
  // Never leave a llama-server behind.
  void supervisor.dispose().finally(() => app.exit(0))
})

void app.whenReady().then(() => {
  registerIpcHandlers(supervisor, async () => null)
  supervisor.on('state', (status) => {
    refreshTray()
    if (dashboard) send(dashboard.webContents, 'server:state-changed', status)
  })
  tray = new Tray(nativeImage.createFromPath(join(__dirname, '../../resources/icon.png')))
  refreshTray()
  openDashboard()
})
