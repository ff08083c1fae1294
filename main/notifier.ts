import { Notification } from 'electron'
import type { Notice } from './attention'

export interface NotifierOptions {
  readonly enabled: () => boolean
  readonly onClick: () => void
  readonly icon?: string
  /** False where native toasts cannot show (Windows portable build: no AppUserModelID shortcut). */
  readonly toasts: boolean
  /** Shows the notice another way (the tray balloon) when toasts cannot; false when that cannot either. */
  readonly fallback?: (notice: Notice) => boolean
}

/**
 * Shows native notifications when the user allows them. Each one is kept
 * referenced until it is closed: a garbage-collected Notification loses its
 * click handler on Windows.
 */
export class Notifier {
  private readonly live = new Set<Notification>()

  constructor(private readonly options: NotifierOptions) {}

  /** False when nothing was shown (then the caller may open the window instead). */
  show(notice: Notice): boolean {
    if (!this.options.enabled()) return false
    const short = { ...notice, title: notice.title.slice(0, 120), body: notice.body.slice(0, 400) }
    if (!this.options.toasts || !Notification.isSupported()) return this.options.fallback?.(short) ?? false
    const icon = this.options.icon
    const n = new Notification({
      title: short.title,
      body: short.body,
      urgency: notice.urgent ? 'critical' : 'normal',
      ...(icon ? { icon } : {}),
    })
    this.live.add(n)
    const release = (): void => void this.live.delete(n)
    n.on('click', () => {
      release()
      this.options.onClick()
    })
    n.on('close', release)
    n.on('failed', release)
    n.show()
    return true
  }
}
