import { readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import type { EngineKind } from '../contract/profile'
import { writeFileAtomic } from '../lib/atomic-write'
import { runOnce } from '../lib/process/run-once'
import { classifyEngine, parseAllowedValues, parseHelpFlags, parseVersion } from './engine-help'

export interface EngineInfo {
  readonly binary: string
  readonly kind: EngineKind
  readonly version: string | null
  readonly commit: string | null
  /** Every flag spelling the binary's --help lists (empty when it could not be read). */
  readonly flags: ReadonlySet<string>
  /** The KV cache types it accepts, when its help lists them. */
  readonly cacheTypes: readonly string[] | null
}

const CacheEntrySchema = z.object({
  size: z.number(),
  mtimeMs: z.number(),
  kind: z.enum(['mainline', 'ik_llama', 'buun', 'unknown']),
  version: z.string().nullable(),
  commit: z.string().nullable(),
  flags: z.array(z.string()),
  cacheTypes: z.array(z.string()).nullable(),
})
const CacheFileSchema = z.object({ version: z.literal(1), binaries: z.record(z.string(), CacheEntrySchema) })
type CacheFile = z.infer<typeof CacheFileSchema>

export const ENGINES_CACHE_FILE = 'engines.json'

export class EngineDetectError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'EngineDetectError'
  }
}

/**
 * Runs `binary args` without a shell and returns stdout + stderr (llama-server logs to either), whatever the exit code.
 * At the timeout it is killed with its process group and whatever it printed is returned (see runOnce).
 */
export async function runForOutput(binary: string, args: readonly string[], timeoutMs = 15_000): Promise<string> {
  const r = await runOnce(binary, args, timeoutMs)
  if (r.spawnError) throw new EngineDetectError(`cannot run ${binary}: ${r.spawnError}`)
  return r.stdout + r.stderr
}

/** Engine facts from the text of --help and --version. */
export function engineFromOutput(binary: string, help: string, versionText: string): EngineInfo {
  const flags = parseHelpFlags(help)
  const cacheTypes = parseAllowedValues(help, '--cache-type-k')
  const { version, commit } = parseVersion(versionText)
  return { binary, kind: classifyEngine(flags, cacheTypes), version, commit, flags, cacheTypes }
}

async function readCache(path: string): Promise<CacheFile> {
  try {
    const parsed = CacheFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')))
    if (parsed.success) return parsed.data
  } catch {
    // missing or unreadable: it is only a cache, probe again
  }
  return { version: 1, binaries: {} }
}

/**
 * What a llama-server binary is. Runs it with --version and --help once per
 * binary; the result is cached in <home>/engines.json by path, size and mtime.
 */
export async function detectEngine(home: string, binary: string, run = runForOutput): Promise<EngineInfo> {
  const path = resolve(binary)
  let info
  try {
    info = await stat(path)
  } catch {
    throw new EngineDetectError(`llama-server binary not found: ${path}`)
  }
  const cachePath = join(home, ENGINES_CACHE_FILE)
  const cache = await readCache(cachePath)
  const hit = cache.binaries[path]
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) {
    return { binary: path, kind: hit.kind, version: hit.version, commit: hit.commit, flags: new Set(hit.flags), cacheTypes: hit.cacheTypes }
  }
  const versionText = await run(path, ['--version'])
  const help = await run(path, ['--help'])
  const engine = engineFromOutput(path, help, versionText)
  cache.binaries[path] = { size: info.size, mtimeMs: info.mtimeMs, kind: engine.kind, version: engine.version, commit: engine.commit, flags: [...engine.flags].sort(), cacheTypes: engine.cacheTypes ? [...engine.cacheTypes] : null }
  await writeFileAtomic(cachePath, `${JSON.stringify(cache, null, 2)}\n`).catch(() => {})
  return engine
}

/** The engines already detected (from the cache only: never runs a binary), by resolved binary path. */
export async function cachedEngineKinds(home: string): Promise<ReadonlyMap<string, EngineKind>> {
  const cache = await readCache(join(home, ENGINES_CACHE_FILE))
  return new Map(Object.entries(cache.binaries).map(([path, entry]) => [path, entry.kind]))
}
