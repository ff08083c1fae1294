import { Notification } from 'electron'
import type { Notice } from './attention'

/**
 * Shows native notifications when the user allows them. Each one is kept
 * referenced until it is closed: a garbage-collected Notification loses its
 * click handler on Windows.
 */
export class Notifier {
  private readonly live = new Set<Notification>()

  constructor(
    private readonly enabled: () => boolean,
    private readonly onClick: () => void,
    private readonly icon?: string,
  ) {}

  show(notice: Notice): boolean {
    if (!this.enabled() || !Notification.isSupported()) return false
    const n = new Notification({ title: notice.title.slice(0, 120), body: notice.body.slice(0, 400), urgency: notice.urgent ? 'critical' : 'normal', ...(this.icon ? { icon: this.icon } : {}) })
    this.live.add(n)
    const release = (): void => void this.live.delete(n)
    n.on('click', () => {
      release()
      this.onClick()
    })
    n.on('close', release)
    n.on('failed', release)
    n.show()
    return true
  }
}
