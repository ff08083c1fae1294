import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'

export const MODEL_SIZES_FILE = 'model-sizes.json'

const FileSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string().min(1), z.number().int().nonnegative()),
})
type ModelSizesFile = z.infer<typeof FileSchema>

/** Paths kept: enough for every profile's model and draft, and their replacements over time. */
const KEEP = 500

const codec = versionedCodec({ schema: FileSchema, version: 1 })

function open(home: string): JsonStore<ModelSizesFile> {
  return openJsonStore<ModelSizesFile>({
    path: join(home, MODEL_SIZES_FILE),
    label: 'model sizes file',
    codec,
    defaults: () => ({ version: 1, files: {} }),
  })
}

/**
 * The size of each model file a profile used, recorded at import, at each save and when its server is ready
 * (<home>/model-sizes.json): when the file is gone, a file of the same name is "the same file" only if its size matches.
 * A cache: a damaged file is set aside and sizes are learnt again; a failed write is only a lost record.
 */
export async function recordModelSizes(home: string, paths: readonly (string | null | undefined)[]): Promise<void> {
  const sizes: [string, number][] = []
  for (const path of paths) {
    if (!path) continue
    const st = await stat(path).catch(() => null)
    if (st?.isFile()) sizes.push([resolve(path), st.size])
  }
  if (sizes.length === 0) return
  const store = open(home)
  try {
    await store.load()
    if (sizes.every(([p, n]) => store.value.files[p] === n)) return
    await store.update((file) => {
      const files = { ...file.files }
      for (const [p, n] of sizes) {
        delete files[p] // the newest last, so the oldest go first
        files[p] = n
      }
      const keys = Object.keys(files)
      for (const old of keys.slice(0, Math.max(0, keys.length - KEEP))) delete files[old]
      return { ...file, files }
    })
  } catch {
    // a lost record: the moved-file search falls back to the name
  }
}

/** The recorded size of a model file (its path as the profile had it), or null when none was recorded. */
export async function recordedModelSize(home: string, path: string): Promise<number | null> {
  const store = open(home)
  try {
    await store.load()
  } catch {
    return null
  }
  return store.value.files[resolve(path)] ?? null
}
