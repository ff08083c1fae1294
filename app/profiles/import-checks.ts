import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { ImportError } from './import-command'
import type { Profile } from './schema'

export interface ImportCheckOptions {
  /** Store it anyway: a model file that is not there (marked missing) or a first word that is not a llama-server. */
  readonly force?: boolean
}

/** What a forced import stored that is not right yet, for the profile's notes. */
export const MISSING_MODEL_NOTE = 'The model file was missing when this profile was imported.'

// llama-server, llama-server.exe, a renamed or wrapped build ("llama-server-cuda"), an old build's "server".
const SERVER_NAME = /llama-server|^server(\.exe)?$/i

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

/**
 * Checks an imported profile before it is stored: the first word must look like a llama-server and the -m file must
 * exist (each unless forced; a forced missing model is noted in the profile). The name is checked by the store
 * (ProfileStore.addNamed), under its lock.
 */
export async function checkImport(profile: Profile, options: ImportCheckOptions = {}): Promise<Profile> {
  if (profile.binary !== '' && !SERVER_NAME.test(basename(profile.binary.replace(/\\/g, '/'))) && !options.force) {
    throw new ImportError(
      `The program "${profile.binary}" is not a llama-server, so this command was not imported: paste a ` +
        `llama-server command line, or add --force ` +
        `to store it anyway.`,
    )
  }
  let stored = profile
  if (profile.model !== '' && !(await exists(profile.model))) {
    if (!options.force)
      throw new ImportError(
        `The model file ${profile.model} does not exist: check the -m path, or add --force to store the profile anyway.`,
      )
    stored = { ...stored, notes: [stored.notes, MISSING_MODEL_NOTE].filter(Boolean).join('\n') }
  }
  return stored
}
