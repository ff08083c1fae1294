import type { ImportCommandOptions, ImportSurface } from '../contract/import-wording'
import { checkImport } from './import-checks'
import { gateProfile, type GatedProfile, type GateOptions } from './profile-gate'
import type { Profile } from './schema'
import type { ProfileStore } from './store'

export interface StoreImportOptions extends ImportCommandOptions {
  readonly home: string
  /** Whose words the refusals use (the CLI's options or the dashboard's buttons). */
  readonly surface: ImportSurface
  readonly advise?: GateOptions['advise']
}

export interface StoredImport extends Omit<GatedProfile, 'profile'> {
  /** The profile as stored (its id unique, or the id of the profile it replaced). */
  readonly profile: Profile
  readonly replaced: boolean
}

/**
 * Stores an imported profile the same way for the CLI and the dashboard: a first word that is not a llama-server
 * and a missing -m file are refused unless forced, the gate puts the flags in the binary's spelling, and a name
 * already taken is refused unless replacing (checked under the store's lock).
 */
export async function storeImport(store: ProfileStore, profile: Profile, options: StoreImportOptions): Promise<StoredImport> {
  const checked = await checkImport(profile, { force: options.force ?? false, surface: options.surface })
  const gated = await gateProfile(checked, { home: options.home, ...(options.advise ? { advise: options.advise } : {}) })
  const { profile: stored, replaced } = await store.addNamed(gated.profile, { replace: options.replace ?? false, surface: options.surface })
  return { ...gated, profile: stored, replaced }
}
