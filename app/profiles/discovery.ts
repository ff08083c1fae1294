import { homedir as osHomedir } from 'node:os'
import type { DiscoveredBinary, Discovery } from '../contract/profile'
import { findBinaries, type BinaryCandidate } from './discovery-binaries'
import { DEFAULT_WALK_LIMITS, findGgufFiles, markDrafts, readModelFacts, type ModelWalkLimits } from './discovery-models'
import { modelFolders, type DiscoveryPlaces } from './discovery-places'
import { detectFork } from './fork-detect'

export interface DiscoverOptions {
  /** Llama Tray's home folder (stored profiles, the engine detection cache). */
  readonly home: string
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly platform?: NodeJS.Platform
  /** The user's home folder (LM Studio, HF cache, ~/models, source builds). */
  readonly homedir?: string
  /** Model folders the user added, searched first. */
  readonly extraModelDirs?: readonly string[]
  /** Run each binary found with --version/--help (cached) to know its engine; off by default. */
  readonly detect?: boolean
  readonly limits?: ModelWalkLimits
  /** The engines Llama Tray installed (<home>/engines), listed first: the engines layer knows them. */
  readonly installedEngines?: readonly BinaryCandidate[]
}

async function withEngine(home: string, b: DiscoveredBinary): Promise<DiscoveredBinary> {
  try {
    const info = await detectFork(home, b.path)
    return { ...b, fork: info.fork, version: info.version }
  } catch {
    return b // cannot run it: listed with what is known
  }
}

/**
 * Finds llama-server binaries and GGUF models on this machine for the profile
 * picker. Reads only: no program is run (unless `detect`), nothing is written,
 * and a bad folder or file is skipped or reported, never thrown.
 */
export async function discover(options: DiscoverOptions): Promise<Discovery> {
  const places: DiscoveryPlaces = {
    platform: options.platform ?? process.platform,
    homedir: options.homedir ?? osHomedir(),
    env: options.env ?? process.env,
  }
  const found = await findBinaries(options.home, places, options.installedEngines ?? [])
  // One at a time: each detection rewrites the shared cache file.
  const binaries = []
  for (const b of found.binaries) binaries.push(options.detect ? await withEngine(options.home, b) : b)
  const files = await findGgufFiles(
    modelFolders(places, options.extraModelDirs ?? []),
    places.platform,
    options.limits ?? DEFAULT_WALK_LIMITS,
  )
  const facts = []
  for (const f of files.files) facts.push(await readModelFacts(f))
  // PATH may name a folder twice: list each searched folder once.
  return { binaries, models: markDrafts(facts), searched: [...new Set([...found.searched, ...files.searched])] }
}
