import { failureSentence } from '../app/contract/wording'
import type { ServerStatus } from '../app/contract/server-state'
import { warningText, type Warning } from '../app/contract/warnings'

export interface Notice {
  readonly title: string
  readonly body: string
  readonly urgent: boolean
}

/**
 * Decides which events deserve a native notification, so the user hears of a
 * crash or a warning without watching the dashboard, and is not spammed: a
 * crash is announced once per transition into a failure state; a warning once
 * while it lasts (it may come back after it clears), at most one warning every
 * `warningGapMs`, and not while the dashboard (which shows it) has focus.
 */
export class AttentionTracker {
  private previous: ServerStatus | null = null
  private readonly shownWarnings = new Set<string>()
  private lastWarningAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly profileName: (id: string | null) => string,
    private readonly now: () => number = Date.now,
    private readonly warningGapMs = 60_000,
  ) {}

  onStatus(status: ServerStatus): Notice | null {
    const before = this.previous?.state ?? 'stopped'
    this.previous = status
    if (status.state === before) return null
    const name = this.profileName(status.profileId)
    // The failure as every view says it (cause and fix); an exit without a Problem says its reason and hint.
    const exit = status.lastExit
    const said = exit?.problem?.sentence ?? failureSentence(exit?.reason ?? 'llama-server exited unexpectedly', exit?.hint ?? null)
    switch (status.state) {
      case 'backoff': {
        const wait = Math.max(0, Math.round((status.restartAt - this.now()) / 1000))
        return { title: `${name} crashed`, body: `${said} Restarting in ${wait} s.`, urgent: false }
      }
      case 'crashloop':
        return { title: `${name} keeps crashing`, body: `${said} Gave up after ${status.restarts} restarts.`, urgent: true }
      case 'errored':
        return { title: `${name} could not start`, body: said, urgent: true }
      default:
        return null
    }
  }

  onWarnings(warnings: readonly Warning[], dashboardFocused: boolean): Notice | null {
    const current = new Set(warnings.map((w) => w.id))
    for (const id of this.shownWarnings) if (!current.has(id)) this.shownWarnings.delete(id)
    if (dashboardFocused) {
      // The dashboard shows them: count them as seen.
      for (const w of warnings) if (w.level !== 'info') this.shownWarnings.add(w.id)
      return null
    }
    const fresh = warnings.filter((w) => w.level !== 'info' && !this.shownWarnings.has(w.id))
    const first = fresh.find((w) => w.level === 'error') ?? fresh[0]
    if (!first || this.now() - this.lastWarningAt < this.warningGapMs) return null
    this.shownWarnings.add(first.id)
    this.lastWarningAt = this.now()
    const more = fresh.length > 1 ? ` (+${fresh.length - 1} more in the dashboard)` : ''
    return {
      title: first.level === 'error' ? 'Llama Tray: needs attention' : 'Llama Tray: warning',
      body: `${warningText(first)}${more}`,
      urgent: first.level === 'error',
    }
  }
}
