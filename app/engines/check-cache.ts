import { join } from 'node:path'
import { z } from 'zod'
import { versionedCodec } from '../lib/json-store/json-codec'
import { openJsonStore } from '../lib/json-store/registry'
import type { JsonStore } from '../lib/json-store/json-store'

/**
 * <home>/engine-checks.json: the GPU check's verdicts, keyed by the binary's
 * SHA-256 and the GPU driver's version, so the same build on the same driver
 * is not started again at every install; a new driver checks it again.
 */
export const ENGINE_CHECKS_FILE = 'engine-checks.json'

const VerdictSchema = z.object({ ok: z.boolean(), reason: z.string().nullable(), at: z.string() })
const ChecksSchema = z.object({ version: z.literal(1), checks: z.record(z.string(), VerdictSchema) })
type ChecksFile = z.infer<typeof ChecksSchema>
export type CachedVerdict = z.infer<typeof VerdictSchema>

/** Verdicts kept at most; the oldest go first (one per build and driver, so a few a year). */
const MAX_ENTRIES = 200

const codec = versionedCodec({ schema: ChecksSchema, version: 1 })

function store(home: string): JsonStore<ChecksFile> {
  const path = join(home, ENGINE_CHECKS_FILE)
  return openJsonStore({ path, label: 'engine checks file', codec, defaults: () => ({ version: 1, checks: {} }) })
}

/** The key of one binary on one driver for one backend's check ("none": no GPU driver, or a CPU build, which no driver affects). */
export function checkKey(binarySha256: string, driverVersion: string | null, backend: string): string {
  return `${binarySha256}|${backend === 'cpu' ? 'none' : (driverVersion ?? 'none')}|${backend}`
}

export async function cachedVerdict(home: string, key: string): Promise<CachedVerdict | null> {
  return (await store(home).load()).checks[key] ?? null
}

export async function storeVerdict(home: string, key: string, verdict: CachedVerdict): Promise<void> {
  await store(home).update((file) => {
    const checks = { ...file.checks, [key]: verdict }
    const keys = Object.keys(checks).sort((a, b) => (checks[a]?.at ?? '').localeCompare(checks[b]?.at ?? ''))
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete checks[old]
    return { version: 1, checks }
  })
}
