import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import type { EngineKind } from '../contract/profile'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
import { runOnce } from '../lib/process/run-once'
import { classifyEngine, parseAllowedValues, parseHelpFlags, parseVersion } from './engine-help'
import { problem, type Problem } from '../contract/problem'

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

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('engine', this.message)
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

const cacheCodec = versionedCodec({ schema: CacheFileSchema, version: 1 })

/**
 * The one store of <home>/engines.json in this process. Only a cache: a damaged file is set aside
 * (`.corrupt-<time>`, named in the store's notices) and the binaries are probed again.
 */
export function engineCacheStore(home: string): JsonStore<CacheFile> {
  return openJsonStore<CacheFile>({
    path: join(home, ENGINES_CACHE_FILE),
    label: 'engine cache',
    codec: cacheCodec,
    defaults: () => ({ version: 1, binaries: {} }),
  })
}

/** The cache as it is on disk now; an unreadable one (permissions) reads as empty: the binary is probed again. */
const readCache = (home: string): Promise<CacheFile> =>
  engineCacheStore(home)
    .load()
    .catch(() => ({ version: 1 as const, binaries: {} }))

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
  const hit = (await readCache(home)).binaries[path]
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) {
    return { binary: path, kind: hit.kind, version: hit.version, commit: hit.commit, flags: new Set(hit.flags), cacheTypes: hit.cacheTypes }
  }
  const versionText = await run(path, ['--version'])
  const help = await run(path, ['--help'])
  const engine = engineFromOutput(path, help, versionText)
  const entry = {
    size: info.size,
    mtimeMs: info.mtimeMs,
    kind: engine.kind,
    version: engine.version,
    commit: engine.commit,
    flags: [...engine.flags].sort(),
    cacheTypes: engine.cacheTypes ? [...engine.cacheTypes] : null,
  }
  // Added to the file as it is now, under its lock, so parallel detections keep each other's entries; a failed write only means probing
  // again.
  await engineCacheStore(home)
    .update((cache) => ({ ...cache, binaries: { ...cache.binaries, [path]: entry } }))
    .catch(() => undefined)
  return engine
}

/** The engines already detected (from the cache only: never runs a binary), by resolved binary path. */
export async function cachedEngineKinds(home: string): Promise<ReadonlyMap<string, EngineKind>> {
  const cache = await readCache(home)
  return new Map(Object.entries(cache.binaries).map(([path, entry]) => [path, entry.kind]))
}
