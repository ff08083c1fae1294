import type { Result } from '../contract/commands'
import type { ProfileSummary } from '../contract/profile'
import type { WarningFix } from '../contract/warnings'
import { gateProfile, ProfileGateError } from '../profiles/profile-gate'
import { profileSummary } from '../profiles/profile-summary'
import { renderArgs, withArgs } from '../profiles/profile-args'
import type { Profile } from '../profiles/schema'
import { ProfileStore } from '../profiles/store'
import { applyFixToArgs } from './apply-fix-args'
import { failed } from '../lib/failed'

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
    if (!profile) return failed('profile', `no profile "${profileId}" to apply "${fix.label}" to: it was deleted or renamed`)
    const gated = await gateProfile(fixProfile(profile, fix, now), { home })
    await store.upsert(gated.profile)
    const summary = profileSummary(gated.profile, store.file.activeProfileId)
    return { ok: true, value: gated.notices.length > 0 ? { ...summary, notices: gated.notices } : summary }
  } catch (err) {
    if (err instanceof ProfileGateError) return { ok: false, error: err.toProblem() }
    return failed('profile', 'the profile could not be saved: check that its folder is writable, then try again', {
      details: err instanceof Error ? (err.stack ?? err.message) : String(err),
    })
  }
}
