import { Menu, type NativeImage, type Tray } from 'electron'
import { buildTrayTemplate, templateKey, type TrayActions } from './tray-menu'
import { trayIconState, trayTooltip, type TrayIconState, type TrayView } from './tray-view'

/**
 * Keeps the tray in step with the view, touching the OS only on change: a new
 * tooltip re-renders the icon on Windows, and replacing the menu closes it if
 * the user has it open, so per-second snapshots must not rebuild it.
 */
export class TrayController {
  private icon: TrayIconState | null = null
  private tooltip: string | null = null
  private menuKey: string | null = null

  constructor(
    private readonly tray: Pick<Tray, 'setImage' | 'setToolTip' | 'setContextMenu'>,
    private readonly icons: (state: TrayIconState) => NativeImage,
    private readonly actions: TrayActions,
  ) {}

  update(view: TrayView): void {
    const icon = trayIconState(view)
    if (icon !== this.icon) {
      this.tray.setImage(this.icons(icon))
      this.icon = icon
    }
    const tooltip = trayTooltip(view)
    if (tooltip !== this.tooltip) {
      this.tray.setToolTip(tooltip)
      this.tooltip = tooltip
    }
    const template = buildTrayTemplate(view, this.actions)
    const key = templateKey(template)
    if (key !== this.menuKey) {
      this.tray.setContextMenu(Menu.buildFromTemplate(template))
      this.menuKey = key
    }
  }
}
