import { stat } from 'node:fs/promises'
import { homedir as osHomedir } from 'node:os'
import type { ProblemFix } from '../contract/problem'
import type { FailureKind } from '../contract/server-state'
import { formatCommandLine } from '../lib/command-line'
import { findGgufFiles, type ModelWalkLimits } from './discovery-models'
import { modelFolders, pathApi, type DiscoveryPlaces } from './discovery-places'

// A profile's model (or draft) file is gone: the way out is to point the
// profile at the file again. Discovery's model folders (and the folders beside
// the old one) often hold it under the same name after a move; then that file
// is the fix, else the file dialog is.

type FileRole = 'model' | 'draftModel'

const ROLE: Partial<Record<FailureKind, FileRole>> = { 'model-missing': 'model', 'draft-missing': 'draftModel' }

/** The CLI's command that does the same as the fix button (`file` as typed, or a placeholder for "pick one"). */
export function setFileCommand(profileId: string, role: FileRole, file: string | null): string {
  const verb = role === 'model' ? 'set-model' : 'set-draft'
  return `llama-tray profiles ${verb} ${formatCommandLine([profileId])} ${file === null ? '<file.gguf>' : formatCommandLine([file])}`
}

export interface MissingFileFix {
  readonly fix: ProblemFix
  /** "found moved.gguf in Downloads" when a file of that name and size was found; null when the fix is to choose one. */
  readonly found: string | null
}

export interface MissingFileSearch {
  /** Model folders the user added (Settings), searched first. */
  readonly extraModelDirs: readonly string[]
  readonly platform?: NodeJS.Platform
  readonly homedir?: string
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly limits?: ModelWalkLimits
  /**
   * The missing file's size as recorded when the profile used it (model-sizes.ts): a file of the same name is the same
   * file only with this size. Null or absent when none was recorded: then the name alone, said less surely.
   */
  readonly knownSize?: number | null
}

/** Where a moved file may be now: discovery's model folders, and the folder that held the old one's folder (a sibling). */
function searchRoots(missing: string, places: DiscoveryPlaces, extra: readonly string[]): { dir: string; source: string }[] {
  const { dirname } = pathApi(places.platform)
  const parent = dirname(dirname(missing))
  const beside = parent !== dirname(parent) && parent !== places.homedir ? [{ dir: parent, source: 'beside the old folder' }] : []
  return [...modelFolders(places, extra), ...beside]
}

/** The first file of the given size (a file that cannot be read is not it). */
async function firstOfSize<T extends { readonly path: string }>(files: readonly T[], size: number): Promise<T | undefined> {
  for (const f of files) if ((await stat(f.path).catch(() => null))?.size === size) return f
  return undefined
}

/**
 * The fix for a start that failed on a missing model or draft file of a stored profile: use the file of the same
 * name (and the recorded size) found in the model folders ("found moved.gguf in Downloads"; by name alone, where no size
 * was recorded: "a file named moved.gguf is in Downloads"), else choose the file. Null for other failures.
 */
export async function missingFileFix(
  kind: FailureKind,
  missing: string,
  profileId: string,
  search: MissingFileSearch,
): Promise<MissingFileFix | null> {
  const role = ROLE[kind]
  if (!role) return null
  const places: DiscoveryPlaces = {
    platform: search.platform ?? process.platform,
    homedir: search.homedir ?? osHomedir(),
    env: search.env ?? process.env,
  }
  const { basename, dirname } = pathApi(places.platform)
  const name = basename(missing)
  const same = (a: string): boolean => (places.platform === 'win32' ? a.toLowerCase() === name.toLowerCase() : a === name)
  const { files } = await findGgufFiles(searchRoots(missing, places, search.extraModelDirs), places.platform, search.limits)
  const named = files.filter((f) => same(basename(f.path)) && f.path !== missing)
  const knownSize = search.knownSize ?? null
  const moved = knownSize === null ? named[0] : await firstOfSize(named, knownSize)
  if (moved) {
    const folder = basename(dirname(moved.path))
    return {
      fix: {
        label: `Use ${name} from ${folder}`,
        run: { command: 'profiles:use-file', profileId, role, path: moved.path },
        cli: setFileCommand(profileId, role, moved.path),
      },
      // Same name and size: the file that moved. The name alone: maybe another file of that name.
      found: knownSize === null ? `a file named ${name} is in ${folder}` : `found ${name} in ${folder}`,
    }
  }
  return {
    fix: {
      label: 'Choose the file…',
      run: { command: 'profiles:choose-file', profileId, role },
      cli: setFileCommand(profileId, role, null),
    },
    found: null,
  }
}
