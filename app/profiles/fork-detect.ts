import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import type { ServerFork } from '../contract/profile'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
import { runOnce } from '../lib/process/run-once'
import { classifyFork, parseAllowedValues, parseHelpFlags, parseVersion } from './engine-help'
import { problem, type Problem } from '../contract/problem'
import { serverSubcommand } from '../contract/server-binary'

export interface ServerBinaryInfo {
  readonly binary: string
  readonly fork: ServerFork
  readonly version: string | null
  readonly commit: string | null
  /** Every flag spelling the binary's --help lists (empty when it could not be read). */
  readonly flags: ReadonlySet<string>
  /** The KV cache types it accepts, when its help lists them. */
  readonly cacheTypes: readonly string[] | null
}

const ForkSchema = z.enum(['mainline', 'ik_llama', 'buun', 'unknown'])
// Caches written before the fork had its own name keep it under `kind`; they still load.
const LegacyForkKey = z.preprocess(
  (raw) => (raw !== null && typeof raw === 'object' && !('fork' in raw) && 'kind' in raw ? { ...raw, fork: raw.kind } : raw),
  z.object({ fork: ForkSchema }).passthrough(),
)
const CacheEntrySchema = LegacyForkKey.pipe(
  z.object({
    size: z.number(),
    mtimeMs: z.number(),
    fork: ForkSchema,
    version: z.string().nullable(),
    commit: z.string().nullable(),
    flags: z.array(z.string()),
    cacheTypes: z.array(z.string()).nullable(),
  }),
)
const CacheFileSchema = z.object({ version: z.literal(1), binaries: z.record(z.string(), CacheEntrySchema) })
type CacheFile = z.infer<typeof CacheFileSchema>

export const FORK_CACHE_FILE = 'engines.json'

export class ForkDetectError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ForkDetectError'
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
  if (r.spawnError) throw new ForkDetectError(`cannot run ${binary}: ${r.spawnError}`)
  return r.stdout + r.stderr
}

/** The fork, version and flags of a binary from the text of --help and --version. */
export function forkFromOutput(binary: string, help: string, versionText: string): ServerBinaryInfo {
  const flags = parseHelpFlags(help)
  const cacheTypes = parseAllowedValues(help, '--cache-type-k')
  const { version, commit } = parseVersion(versionText)
  return { binary, fork: classifyFork(flags, cacheTypes), version, commit, flags, cacheTypes }
}

const cacheCodec = versionedCodec({ schema: CacheFileSchema, version: 1 })

/**
 * The one store of <home>/engines.json in this process. Only a cache: a damaged file is set aside
 * (`.corrupt-<time>`, named in the store's notices) and the binaries are probed again.
 */
export function forkCacheStore(home: string): JsonStore<CacheFile> {
  return openJsonStore<CacheFile>({
    path: join(home, FORK_CACHE_FILE),
    label: 'engine cache',
    codec: cacheCodec,
    defaults: () => ({ version: 1, binaries: {} }),
  })
}

/** The cache as it is on disk now; an unreadable one (permissions) reads as empty: the binary is probed again. */
const readCache = (home: string): Promise<CacheFile> =>
  forkCacheStore(home)
    .load()
    .catch(() => ({ version: 1 as const, binaries: {} }))

/** What the cache knows of a binary without running it: null when it was never probed, or changed since. */
export async function cachedEngine(home: string, binary: string): Promise<{ fork: ServerFork; version: string | null } | null> {
  const path = resolve(binary)
  const info = await stat(path).catch(() => null)
  const hit = (await readCache(home)).binaries[path]
  return info && hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs ? { fork: hit.fork, version: hit.version } : null
}

/**
 * What a llama-server binary is. Runs it with --version and --help once per
 * binary; the result is cached in <home>/engines.json by path, size and mtime.
 */
export async function detectFork(home: string, binary: string, run = runForOutput): Promise<ServerBinaryInfo> {
  const path = resolve(binary)
  let info
  try {
    info = await stat(path)
  } catch {
    throw new ForkDetectError(`llama-server binary not found: ${path}`)
  }
  const hit = (await readCache(home)).binaries[path]
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) {
    return { binary: path, fork: hit.fork, version: hit.version, commit: hit.commit, flags: new Set(hit.flags), cacheTypes: hit.cacheTypes }
  }
  // llama.cpp's one program answers for its server after `serve` (`llama serve --help`).
  const versionText = await run(path, [...serverSubcommand(path), '--version'])
  const help = await run(path, [...serverSubcommand(path), '--help'])
  const binaryInfo = forkFromOutput(path, help, versionText)
  const entry = {
    size: info.size,
    mtimeMs: info.mtimeMs,
    fork: binaryInfo.fork,
    version: binaryInfo.version,
    commit: binaryInfo.commit,
    flags: [...binaryInfo.flags].sort(),
    cacheTypes: binaryInfo.cacheTypes ? [...binaryInfo.cacheTypes] : null,
  }
  // Added to the file as it is now, under its lock, so parallel detections keep each other's entries; a failed write only means probing
  // again.
  await forkCacheStore(home)
    .update((cache) => ({ ...cache, binaries: { ...cache.binaries, [path]: entry } }))
    .catch(() => undefined)
  return binaryInfo
}

/** The forks already detected (from the cache only: never runs a binary), by resolved binary path. */
export async function cachedForks(home: string): Promise<ReadonlyMap<string, ServerFork>> {
  const cache = await readCache(home)
  return new Map(Object.entries(cache.binaries).map(([path, entry]) => [path, entry.fork]))
}
