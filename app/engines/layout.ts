import { join } from 'node:path'
import { z } from 'zod'
import { firstIssue, type JsonCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
import { ENGINE_BACKENDS, type EngineBackend } from './backends'

/**
 * Installed engines live in <home>/engines/<tag>-<backend>/, each with the
 * release's binaries and a manifest. Names starting with "." are work in
 * progress (`.installing-*`, `.downloads`, `.removing-*`) and never listed:
 * an engine exists only once its folder was renamed into place, manifest included.
 */
export const ENGINES_DIR = 'engines'
export const ENGINE_MANIFEST = 'llama-tray-engine.json'
export const DOWNLOADS_DIR = '.downloads'

export const EngineManifestSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  tag: z.string(),
  backend: z.enum(ENGINE_BACKENDS),
  publishedAt: z.string().nullable(),
  /** The binary's file name inside the folder. */
  binary: z.string(),
  /** What the binary's --version said. */
  engineVersion: z.string().nullable(),
  assets: z.array(z.object({ name: z.string(), size: z.number(), sha256: z.string() })),
  installedAt: z.string(),
  /** SHA-256 of every file of the folder at install (but this manifest), by "/"-separated relative path; absent before 2026-12. */
  files: z.record(z.string(), z.string()).optional(),
})
export type EngineManifest = z.infer<typeof EngineManifestSchema>

export const enginesDir = (home: string): string => join(home, ENGINES_DIR)
export const engineId = (tag: string, backend: EngineBackend): string => `${tag}-${backend}`
export const serverExeName = (platform: NodeJS.Platform): string => (platform === 'win32' ? 'llama-server.exe' : 'llama-server')

/** A tag we may put in a folder name (llama.cpp's are `b1234` and `v0.5.0`). */
export function isSafeTag(tag: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(tag) && !tag.includes('..')
}

/** A manifest is written once, at install; null until then. */
const manifestCodec: JsonCodec<EngineManifest | null> = {
  decode(json) {
    const parsed = EngineManifestSchema.safeParse(json)
    return parsed.success ? { kind: 'ok', value: parsed.data, notices: [] } : { kind: 'invalid', reason: firstIssue(parsed.error) }
  },
  encode(manifest) {
    if (manifest === null) throw new Error('no engine manifest to write')
    return EngineManifestSchema.parse(manifest)
  },
}

/** The one store of an engine folder's manifest in this process. */
export function engineManifestStore(dir: string): JsonStore<EngineManifest | null> {
  return openJsonStore({ path: join(dir, ENGINE_MANIFEST), label: 'engine manifest', codec: manifestCodec, defaults: () => null })
}

/** The manifest of an engine folder, or null when it is not a complete install (peeked at: a listing never writes). */
export async function readManifest(dir: string): Promise<EngineManifest | null> {
  const peeked = await engineManifestStore(dir)
    .peek()
    .catch(() => null)
  return peeked?.kind === 'ok' ? peeked.value : null
}
