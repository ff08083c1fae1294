import type { Discovery } from '../contract/profile'
import { discover, type DiscoverOptions } from '../profiles/discovery'
import { backendLabel } from './backends'
import { listInstalled } from './installed'

/**
 * Discovery with the engines Llama Tray installed listed first (a new user's
 * first profile runs the engine the first run just installed), for the
 * dashboard and `llama-tray profiles discover` alike.
 */
export async function discoverWithEngines(options: Omit<DiscoverOptions, 'installedEngines'>): Promise<Discovery> {
  const installed = (await listInstalled(options.home)).map((e) => ({
    path: e.path,
    source: `installed by Llama Tray (llama.cpp ${e.tag}, ${backendLabel(e.backend)})`,
  }))
  return discover({ ...options, installedEngines: installed })
}
