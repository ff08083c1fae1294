import { constants } from 'node:fs'
import { access, realpath, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { DiscoveredBinary, ServerFork } from '../contract/profile'
import { discoveryId } from './discovery-id'
import { installFolders, pathApi, pathFolders, serverExeNames, type DiscoveryPlaces } from './discovery-places'
import { cachedForks } from './fork-detect'
import { peekProfiles } from './store'

/** A place a binary may be, and how the list will name where it came from. */
export interface BinaryCandidate {
  readonly path: string
  readonly source: string
}

/** The binaries of the stored profiles, peeked at (discovery never writes; an unreadable file lists none). */
async function profileBinaries(home: string): Promise<string[]> {
  const parsed = await peekProfiles(home).catch(() => null)
  if (parsed === null || parsed.kind === 'missing' || parsed.kind === 'corrupt') return []
  return parsed.file.profiles.map((p) => p.binary).filter((b) => b !== '')
}

/** An executable regular file (on Windows, any regular file: there is no execute bit). */
async function isExecutableFile(path: string, platform: NodeJS.Platform): Promise<boolean> {
  const st = await stat(path).catch(() => null)
  if (!st?.isFile()) return false
  if (platform === 'win32') return true
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  )
}

/**
 * llama-server binaries in `first` (the engines Llama Tray installed), the
 * binaries chosen before, PATH and the common install folders, each once (by real path). The engine comes from the
 * detection cache only: discovery never runs a program.
 */
export async function findBinaries(
  home: string,
  places: DiscoveryPlaces,
  first: readonly BinaryCandidate[] = [],
): Promise<{ binaries: DiscoveredBinary[]; searched: string[] }> {
  const { join: pjoin } = pathApi(places.platform)
  const names = serverExeNames(places.platform)
  const pathDirs = pathFolders(places)
  const installDirs = await installFolders(places)
  const candidates: BinaryCandidate[] = [
    ...first,
    ...(await profileBinaries(home)).map((path) => ({ path, source: 'chosen before' })),
    ...pathDirs.flatMap((dir) => names.map((n) => ({ path: pjoin(dir, n), source: 'PATH' }))),
    ...installDirs.flatMap((dir) => names.map((n) => ({ path: pjoin(dir, n), source: 'install folder' }))),
  ]
  const engines: ReadonlyMap<string, ServerFork> = await cachedForks(home)
  const seen = new Set<string>()
  const binaries: DiscoveredBinary[] = []
  for (const c of candidates) {
    if (!(await isExecutableFile(c.path, places.platform))) continue
    const real = await realpath(c.path).catch(() => c.path)
    if (seen.has(real)) continue
    seen.add(real)
    // The cache is keyed by the path the binary was detected under: try both the path found and its target.
    const fork = engines.get(resolve(c.path)) ?? engines.get(real) ?? null
    binaries.push({ id: discoveryId('b', real), path: c.path, fork, version: null, source: c.source })
  }
  return { binaries, searched: [...pathDirs, ...installDirs] }
}
