import type { Result } from '../../../app/contract/commands'
import type { ServerStatus } from '../../../app/contract/server-state'
import type { StartFailure } from '../../../app/contract/snapshot'
import { api } from '../stores/api'

// The header's fix buttons: change the profile the one way the failure names, then start it again.

/** "Use -lm none and start": the binary's spellings stored (as `llama-tray profiles fix`), then the start. */
export async function fixFlagsAndStart(failure: StartFailure): Promise<Result<ServerStatus>> {
  const fixed = await api().profilesApplyFlagFixes(failure.profileId)
  if (!fixed.ok) return fixed
  return api().serverStart(failure.profileId)
}

/** A failed launch's advisor fix (the live server-failed warning's), then the start. */
export async function applyFixAndStart(warningId: string, profileId: string): Promise<Result<ServerStatus>> {
  const fixed = await api().warningsApplyFix(warningId)
  if (!fixed.ok) return fixed
  return api().serverStart(profileId)
}
