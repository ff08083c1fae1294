import { problem } from '../../../app/contract/problem'
import type { ImportResult, Result } from '../../../app/contract/commands'
import type { ImportCommandOptions } from '../../../app/contract/import-wording'
import type {
  ExportFormat,
  FlagProblemSummary,
  ProfileDocument,
  ProfileEdit,
  ProfileFileRole,
  ProfileSettingsDocument,
  ProfileSummary,
} from '../../../app/contract/profile'
import { api } from '../stores/api'

// What the profile views do, in one place: components call these, never the
// commands. The profile list itself arrives through the pushed summary.

export function loadProfile(profileId: string): Promise<ProfileDocument | null> {
  return api().profilesGet(profileId)
}

export function saveProfile(profileId: string, edit: ProfileEdit): Promise<Result<ProfileSummary>> {
  return api().profilesUpdate(profileId, edit)
}

/**
 * Sets one launch setting and keeps the others as they are stored now (the
 * fit's one-click --n-cpu-moe): read, change, write, in one place.
 */
export async function setProfileSetting<K extends keyof ProfileSettingsDocument>(
  profileId: string,
  key: K,
  value: ProfileSettingsDocument[K],
): Promise<Result<ProfileSummary>> {
  const doc = await api().profilesGet(profileId)
  if (!doc) return { ok: false, error: problem('profile', 'The profile is gone: it was deleted meanwhile.') }
  return api().profilesUpdate(profileId, { settings: { ...doc.settings, [key]: value } })
}

/** Sets several launch settings at once, the others kept as stored (the retry's placement after running out of GPU memory). */
export async function setProfileSettings(profileId: string, settings: Partial<ProfileSettingsDocument>): Promise<Result<ProfileSummary>> {
  const doc = await api().profilesGet(profileId)
  if (!doc) return { ok: false, error: problem('profile', 'The profile is gone: it was deleted meanwhile.') }
  return api().profilesUpdate(profileId, { settings: { ...doc.settings, ...settings } })
}

export function checkFlags(profileId: string): Promise<Result<readonly FlagProblemSummary[]>> {
  return api().profilesCheck(profileId)
}

export function applyFlagFixes(profileId: string): Promise<Result<ProfileSummary>> {
  return api().profilesApplyFlagFixes(profileId)
}

export function chooseProfileFile(profileId: string, role: ProfileFileRole): Promise<Result<ProfileSummary | null>> {
  return api().profilesChooseFile(profileId, role)
}

/** Replaces what the profile runs with an edited command line. */
export function setProfileCommand(profileId: string, commandLine: string): Promise<Result<ProfileSummary>> {
  return api().profilesSetCommand(profileId, commandLine)
}

export function exportCommand(profileId: string, format: ExportFormat): Promise<Result<string>> {
  return api().profilesExport(profileId, format)
}

export function duplicateProfile(profileId: string): Promise<Result<ProfileSummary>> {
  return api().profilesDuplicate(profileId)
}

export function deleteProfile(profileId: string): Promise<Result<ProfileSummary>> {
  return api().profilesDelete(profileId)
}

export function undoDeleteProfile(profileId: string): Promise<Result<ProfileSummary>> {
  return api().profilesUndoDelete(profileId)
}

/** Imports a pasted command; a refusal that can be overridden says how (offer), and the same call with force or replace does it. */
export function importProfile(commandLine: string, name: string | null, options: ImportCommandOptions = {}): Promise<ImportResult> {
  return api().profilesImport(commandLine, name, options)
}

export function discoverOnDisk(): ReturnType<ReturnType<typeof api>['profilesDiscover']> {
  return api().profilesDiscover()
}

export function createDiscoveredProfile(
  binaryId: string,
  modelId: string,
  draftModelId: string | null,
  name: string | null,
): Promise<Result<ProfileSummary>> {
  return api().profilesCreateDiscovered(binaryId, modelId, draftModelId, name)
}

/** Pins a profile (its own server beside the active one) or unpins it; a pin that does not fit is refused with the sentence. */
export function setPinned(profileId: string, pinned: boolean): Promise<Result<ProfileSummary>> {
  return pinned ? api().profilesPin(profileId) : api().profilesUnpin(profileId)
}
