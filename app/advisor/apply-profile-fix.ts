import type { Result } from '../contract/commands'
import type { ProfileSummary } from '../contract/profile'
import type { WarningFix } from '../contract/warnings'
import { gateProfile, ProfileGateError } from '../profiles/profile-gate'
import { profileSummary } from '../profiles/profile-summary'
import { renderArgs, withArgs } from '../profiles/profile-args'
import type { Profile } from '../profiles/schema'
import { ProfileStore } from '../profiles/store'
import { applyFixToArgs } from './apply-fix-args'

/** The profile with a fix applied to its arguments (typed fields and extras re-parsed; order kept). */
export function fixProfile(profile: Profile, fix: WarningFix, now: Date): Profile {
  return { ...withArgs(profile, applyFixToArgs(renderArgs(profile), fix)), updatedAt: now.toISOString() }
}

/** Applies a fix to a stored profile and saves it; the change takes effect at the next start. */
export async function applyFixToStoredProfile(
  home: string,
  profileId: string,
  fix: WarningFix,
  now = new Date(),
): Promise<Result<ProfileSummary>> {
  try {
    const store = await ProfileStore.open(home)
    const profile = store.file.profiles.find((p) => p.id === profileId)
    if (!profile) return { ok: false, error: `no profile "${profileId}" to apply "${fix.label}" to` }
    const gated = await gateProfile(fixProfile(profile, fix, now), { home })
    await store.upsert(gated.profile)
    const summary = profileSummary(gated.profile, store.file.activeProfileId)
    return { ok: true, value: gated.notices.length > 0 ? { ...summary, notices: gated.notices } : summary }
  } catch (err) {
    return {
      ok: false,
      error: err instanceof ProfileGateError ? err.message : `cannot save the profile: ${err instanceof Error ? err.message : String(err)}`,
    }
  }
}
