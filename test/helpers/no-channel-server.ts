import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A stand-in for a llama-server without the child channel (a fork, an older build): a script in `dir` that
 * runs the real server with the channel's variable taken away, so it never writes a channel line and ignores
 * its stdin, as those do. POSIX only (a shell script).
 */
export function writeNoChannelServer(dir: string, bin: string): string {
  const path = join(dir, 'llama-server-no-channel')
  writeFileSync(path, `#!/bin/sh\nunset LLAMA_SERVER_ROUTER_PORT\nexec '${bin.replace(/'/g, `'\\''`)}' "$@"\n`)
  chmodSync(path, 0o755)
  return path
}
