import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { missingModelSentence, modelNotAFileSentence, notAServerSentence, type ImportSurface } from '../contract/import-wording'
import { fileKind } from '../lib/read-regular-file'
import { ImportError } from './import-command'
import type { Profile } from './schema'

export interface ImportCheckOptions {
  /** Store it anyway: a model file that is not there (marked missing) or a first word that is not a llama-server. */
  readonly force?: boolean
  /** Whose words name the override (--force on the command line, Import anyway on the dashboard); the CLI's by default. */
  readonly surface?: ImportSurface
}

/** What a forced import stored that is not right yet, for the profile's notes. */
export const MISSING_MODEL_NOTE = 'The model file was missing when this profile was imported.'

// llama-server, llama-server.exe, a renamed or wrapped build ("llama-server-cuda"), an old build's "server",
// llama.cpp's one program (`llama serve`: importArgv took the subcommand).
const SERVER_NAME = /llama-server|^server(\.exe)?$|^llama(\.exe)?$/i

/** What the path is (following links): null when it is not there. */
async function kindOf(path: string): Promise<{ readonly regular: boolean; readonly kind: string } | null> {
  return stat(path).then(
    (s) => ({ regular: s.isFile(), kind: fileKind(s) }),
    () => null,
  )
}

/**
 * Checks an imported profile before it is stored: the first word must look like a llama-server and the -m file must
 * exist (each unless forced; a forced missing model is noted in the profile). The name is checked by the store
 * (ProfileStore.addNamed), under its lock.
 */
export async function checkImport(profile: Profile, options: ImportCheckOptions = {}): Promise<Profile> {
  if (profile.binary !== '' && !SERVER_NAME.test(basename(profile.binary.replace(/\\/g, '/'))) && !options.force) {
    throw new ImportError(notAServerSentence(profile.binary, options.surface ?? 'cli'), 'force')
  }
  let stored = profile
  const model = profile.model === '' ? null : { found: await kindOf(profile.model) }
  if (model && model.found === null) {
    if (!options.force) throw new ImportError(missingModelSentence(profile.model, options.surface ?? 'cli'), 'force')
    stored = { ...stored, notes: [stored.notes, MISSING_MODEL_NOTE].filter(Boolean).join('\n') }
  }
  // A FIFO would hang the GGUF reads, a device (/dev/zero) would be read without end, a folder is no model.
  if (model?.found && !model.found.regular && !options.force)
    throw new ImportError(modelNotAFileSentence(profile.model, model.found.kind, options.surface ?? 'cli'), 'force')
  return stored
}
