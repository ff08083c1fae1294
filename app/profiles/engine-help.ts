import type { ServerFork } from '../contract/profile'

/**
 * Reading `llama-server --help` and `--version` output of mainline,
 * ik_llama.cpp and buun-llama-cpp (formats: test/fixtures/llama-server*).
 */

// A flag line is indented a little (mainline 0, ik 2 or 9 columns); descriptions much more.
const FLAG_LINE = /^ {0,12}-/

/** Every flag spelling the help text lists ("-c,    --ctx-size N" gives -c and --ctx-size). */
export function parseHelpFlags(help: string): Set<string> {
  const flags = new Set<string>()
  for (const line of help.split(/\r?\n/)) {
    // ik_llama lists some aliases only in descriptions.
    const alias = /(--?[A-Za-z][\w-]*) remains as a deprecated alias/.exec(line)
    if (alias) flags.add(alias[1] as string)
    // Mainline still lists removed flags, to say so: they are not accepted.
    if (!FLAG_LINE.test(line) || /has been removed/.test(line)) continue
    let expectFlag = true
    for (const word of line.trim().split(/\s+/)) {
      if (!expectFlag) break
      const name = word.replace(/,$/, '')
      if (!/^--?[A-Za-z0-9][\w+.-]*$/.test(name)) break
      flags.add(name)
      // After a flag without a comma, a value placeholder or the description follows.
      expectFlag = word.endsWith(',')
    }
  }
  return flags
}

/** The values listed under "allowed values:" for a flag (the KV cache types), or null. */
export function parseAllowedValues(help: string, flag: string): string[] | null {
  const lines = help.split(/\r?\n/)
  const start = lines.findIndex(
    (l) =>
      FLAG_LINE.test(l) &&
      l
        .trim()
        .split(/[\s,]+/)
        .includes(flag),
  )
  if (start < 0) return null
  let text = ''
  for (let i = start + 1; i < lines.length && !FLAG_LINE.test(lines[i] as string); i++) text += ` ${lines[i] as string}`
  const m = /allowed values:\s*([\s\S]*?)(?:\(default|\(env|$)/.exec(text)
  if (!m) return null
  return (m[1] as string)
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean)
}

export interface VersionInfo {
  readonly version: string | null
  readonly commit: string | null
}

/** "version: 0.5.0-dev (build 1, commit de3ff81)" or "version: 4840 (8337e4cd3)". */
export function parseVersion(text: string): VersionInfo {
  const m = /version:\s*(\S+)(?:\s*\(([^)]*)\))?/.exec(text)
  if (!m) return { version: null, commit: null }
  const inner = m[2] ?? ''
  const commit = /commit\s+([0-9a-f]{6,40})/.exec(inner)?.[1] ?? (/^[0-9a-f]{6,40}$/.test(inner) ? inner : null)
  return { version: m[1] ?? null, commit }
}

/** Which llama-server this is, from the flags and values it lists (llama-server.md §5). */
export function classifyFork(flags: ReadonlySet<string>, cacheTypes: readonly string[] | null): ServerFork {
  if (flags.has('--v-cache-hadamard') || flags.has('-vhad') || flags.has('--merge-qkv')) return 'ik_llama'
  if (cacheTypes?.some((t) => t.startsWith('turbo'))) return 'buun'
  if (flags.has('--n-gpu-layers') || flags.has('-ngl') || flags.has('--gpu-layers')) return 'mainline'
  return 'unknown'
}
