import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
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

/**
 * What a llama.cpp release of that server holds, as archive entries: the binary and the shared
 * libraries beside it (the test build links ggml and llama as libraries, as llama.cpp's own Linux
 * releases do), so a test's release installs a server that starts.
 */
export function llamaServerReleaseFiles(): { readonly name: string; readonly from: string }[] {
  const bin = llamaServerBin()
  const dir = dirname(bin)
  const libs = readdirSync(dir).filter((f) => /\.so(\.\d+)*$/.test(f))
  return [{ name: 'llama-server', from: bin }, ...libs.map((f) => ({ name: f, from: join(dir, f) }))]
}
