import { homedir } from 'node:os'
import type { DiscoveredBinary } from '../contract/profile'
import { findBinaries } from '../profiles/discovery-binaries'
import { isInside } from './installed'
import { enginesDir } from './layout'

/** llama-server binaries found outside <home>/engines/ (PATH, install folders, winget, Scoop, profiles' own): listed, never managed. */
export async function discoverElsewhere(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<DiscoveredBinary[]> {
  const { binaries } = await findBinaries(home, { platform, homedir: homedir(), env })
  return binaries.filter((b) => !isInside(enginesDir(home), b.path))
}
