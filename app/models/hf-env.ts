import { homedir as osHomedir } from 'node:os'
import { posix, win32 } from 'node:path'

type Env = Readonly<Record<string, string | undefined>>

/** The Hub's base URL: $HF_ENDPOINT (huggingface_hub's and llama.cpp's convention), else huggingface.co; no trailing slash. */
export function hubEndpoint(env: Env = process.env): string {
  return (env.HF_ENDPOINT?.trim() || 'https://huggingface.co').replace(/\/+$/, '')
}

/** The token for gated and private repos ($HF_TOKEN), if any. */
export function hubToken(env: Env = process.env): string | null {
  return env.HF_TOKEN?.trim() || null
}

/**
 * The Hugging Face cache: $HF_HUB_CACHE, else $HF_HOME/hub, else
 * $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub (on Windows too),
 * as huggingface_hub and llama.cpp's -hf read it.
 */
export function hubCacheDir(env: Env = process.env, homedir = osHomedir(), platform: NodeJS.Platform = process.platform): string {
  const { join } = platform === 'win32' ? win32 : posix
  if (env.HF_HUB_CACHE) return env.HF_HUB_CACHE
  if (env.HF_HOME) return join(env.HF_HOME, 'hub')
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'huggingface', 'hub')
  return join(homedir, '.cache', 'huggingface', 'hub')
}

/** Where llama-server's `-hf` puts its downloads: $LLAMA_CACHE first (llama.cpp's own), else the Hugging Face cache. */
export function llamaCacheDir(env: Env = process.env, homedir = osHomedir(), platform: NodeJS.Platform = process.platform): string {
  return env.LLAMA_CACHE || hubCacheDir(env, homedir, platform)
}
