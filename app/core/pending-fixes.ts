import { launchInEffect, type ServerStatus } from '../contract/server-state'
import type { Warning } from '../contract/warnings'

interface Pending {
  readonly warning: Warning
  /** Epoch ms the fix was stored; a launch after it runs the new settings. */
  readonly fixedAt: number
}

/**
 * Fixes stored into the profile that is running: the server still runs the old
 * settings, so the warning stays (marked "applies after restart", its fix done)
 * until a launch made after the fix is ready, or nothing of that profile runs.
 */
export class PendingFixes {
  private readonly pending = new Map<string, Pending>()

  /** After a fix was stored: keeps its warning when it concerns the profile running now. */
  record(warning: Warning | undefined, status: ServerStatus, now: number): void {
    if (!warning || !launchInEffect(status.state) || warning.profileId !== status.profileId) return
    this.pending.set(warning.id, { warning: { ...warning, fix: null, appliesAfterRestart: true }, fixedAt: now })
  }

  /**
   * The advisor's warnings with the pending ones in place of (or beside) theirs; forgets those the new settings now run.
   * `relaunching` is the profile being restarted now ("Apply and restart"): its stop on the way is no reason to forget.
   */
  merge(
    warnings: readonly Warning[],
    status: ServerStatus,
    launchedAt: number | null,
    relaunching: string | null = null,
  ): readonly Warning[] {
    for (const [id, p] of this.pending) {
      const restart = relaunching === p.warning.profileId
      const otherProfile = !restart && (!launchInEffect(status.state) || status.profileId !== p.warning.profileId)
      const relaunched = status.state === 'ready' && launchedAt !== null && launchedAt >= p.fixedAt
      if (otherProfile || relaunched) this.pending.delete(id)
    }
    if (this.pending.size === 0) return warnings
    return [...warnings.filter((w) => !this.pending.has(w.id)), ...[...this.pending.values()].map((p) => p.warning)]
  }
}
