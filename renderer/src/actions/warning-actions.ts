import { api } from '../stores/api'

// What the warning banner and the muted list do (components never call commands themselves).

export interface ActionResult {
  readonly ok: boolean
  readonly text: string
}

/** Applies a warning's one-click fix to its profile. */
export async function applyWarningFix(warningId: string): Promise<ActionResult> {
  const r = await api().warningsApplyFix(warningId)
  return r.ok ? { ok: true, text: `Applied to “${r.value.name}”. Restart the profile to use it.` } : { ok: false, text: r.error }
}

export async function muteWarning(warningId: string): Promise<ActionResult> {
  const r = await api().warningsMute(warningId)
  return r.ok ? { ok: true, text: 'Muted for this profile. Unmute it under Profiles → Muted warnings.' } : { ok: false, text: r.error }
}

export function mutedWarnings(profileId: string): Promise<readonly string[]> {
  return api().warningsMuted(profileId)
}

export async function unmuteWarning(profileId: string, key: string): Promise<{ ok: true; keys: readonly string[] } | { ok: false; error: string }> {
  const r = await api().warningsUnmute(profileId, key)
  return r.ok ? { ok: true, keys: r.value } : { ok: false, error: r.error }
}
