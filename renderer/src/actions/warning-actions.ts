import { problem, type Problem } from '../../../app/contract/problem'
import { failedOutcome, type Outcome } from '../lib/outcome'
import type { Warning } from '../../../app/contract/warnings'
import { api } from '../stores/api'

// What the warning banner and the muted list do (components never call commands themselves).

export type ActionResult = Outcome

/** Applies a warning's one-click fix to its profile (a running server keeps its settings until it restarts). */
export async function applyWarningFix(warning: Warning): Promise<ActionResult> {
  const r = await api().warningsApplyFix(warning.id)
  if (!r.ok) return failedOutcome(r.error)
  const status = await api().serverStatus()
  const later = status.pid !== null && status.profileId === warning.profileId
  return { ok: true, text: later ? `Saved in “${r.value.name}”; it applies after a restart.` : `Saved in “${r.value.name}”.` }
}

/**
 * The fix (when not stored yet) and a start of its profile, which stops the
 * old server and launches the stored settings: the warning clears only once
 * they run.
 */
export async function applyWarningFixAndRestart(warning: Warning): Promise<ActionResult> {
  const profileId = warning.profileId
  if (!profileId) return failedOutcome(problem('input', 'This warning concerns no profile, so there is nothing to restart.'))
  if (!warning.appliesAfterRestart) {
    const fixed = await api().warningsApplyFix(warning.id)
    if (!fixed.ok) return failedOutcome(fixed.error)
  }
  const started = await api().serverStart(profileId)
  return started.ok ? { ok: true, text: 'Restarted with the fix.' } : failedOutcome(started.error)
}

export async function muteWarning(warning: Warning): Promise<ActionResult> {
  const r = await api().warningsMute(warning.id)
  return r.ok ? { ok: true, text: 'Muted for this profile. Unmute it under Profiles → Muted warnings.' } : failedOutcome(r.error)
}

export function mutedWarnings(profileId: string): Promise<readonly string[]> {
  return api().warningsMuted(profileId)
}

export async function unmuteWarning(
  profileId: string,
  key: string,
): Promise<{ ok: true; keys: readonly string[] } | { ok: false; error: Problem }> {
  const r = await api().warningsUnmute(profileId, key)
  return r.ok ? { ok: true, keys: r.value } : { ok: false, error: r.error }
}
