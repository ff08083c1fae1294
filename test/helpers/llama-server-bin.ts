import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from './paths'

let cached: string | null = null

/** The real llama-server: $LLAMA_SERVER_BIN or the cached build (built on first use by npm test). */
export function llamaServerBin(): string {
  if (cached) return cached
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'llama-server-build.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  if (r.status !== 0) throw new Error('could not build or find llama-server (see scripts/llama-server-build.mjs)')
  cached = r.stdout.trim()
  return cached
}
