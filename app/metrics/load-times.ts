import { join } from 'node:path'
import { z } from 'zod'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
import { median } from './median'

export const LOAD_TIMES_FILE = 'load-times.json'

/** Enough loads for a stable median; old ones describe old files and settings. */
const KEEP = 5

const FileSchema = z.object({
  version: z.literal(1),
  profiles: z.record(z.string().min(1), z.array(z.number().finite().nonnegative()).max(KEEP)),
})
type LoadTimesFile = z.infer<typeof FileSchema>

const loadTimesCodec = versionedCodec({ schema: FileSchema, version: 1 })

/**
 * How long each profile took from launch to ready, its last few loads kept in
 * <home>/load-times.json, so a load shows a progress estimate instead of only
 * the elapsed time. A cache of measurements: a damaged file is set aside
 * (`.corrupt-<time>`, with a notice in `messages`) and the times start again.
 */
export class LoadTimes {
  private constructor(private readonly store: JsonStore<LoadTimesFile>) {}

  static async open(home: string): Promise<LoadTimes> {
    const store = openJsonStore<LoadTimesFile>({
      path: join(home, LOAD_TIMES_FILE),
      label: 'load times file',
      codec: loadTimesCodec,
      defaults: () => ({ version: 1, profiles: {} }),
    })
    await store.load()
    return new LoadTimes(store)
  }

  /** Sentences about the latest read: a damaged file set aside, a backup restored. */
  get messages(): readonly string[] {
    return this.store.notices
  }

  /** The usual load time of this profile (median of its last loads), or null before its first. */
  expectedMs(profileId: string): number | null {
    return median(this.store.value.profiles[profileId] ?? [])
  }

  loads(profileId: string): number {
    return this.store.value.profiles[profileId]?.length ?? 0
  }

  /** Records one launch-to-ready time and writes the file; resolves when it is on disk (a failed write is only a lost measurement). */
  async record(profileId: string, ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) return
    await this.store
      .update((file) => ({
        ...file,
        profiles: { ...file.profiles, [profileId]: [...(file.profiles[profileId] ?? []), Math.round(ms)].slice(-KEEP) },
      }))
      .catch(() => undefined)
  }
}
