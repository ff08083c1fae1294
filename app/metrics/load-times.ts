import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../lib/atomic-write'
import { median } from './median'

export const LOAD_TIMES_FILE = 'load-times.json'

/** Enough loads for a stable median; old ones describe old files and settings. */
const KEEP = 5

const FileSchema = z.object({ version: z.literal(1), profiles: z.record(z.string().min(1), z.array(z.number().finite().nonnegative()).max(KEEP)) })

/**
 * How long each profile took from launch to ready, its last few loads kept in
 * <home>/load-times.json, so a load shows a progress estimate instead of only
 * the elapsed time. A cache of measurements: an unreadable file starts empty.
 */
export class LoadTimes {
  private writing: Promise<void> = Promise.resolve()

  private constructor(
    private readonly home: string,
    private readonly byProfile: Map<string, number[]>,
  ) {}

  static async open(home: string): Promise<LoadTimes> {
    const byProfile = new Map<string, number[]>()
    try {
      const parsed = FileSchema.safeParse(JSON.parse(await readFile(join(home, LOAD_TIMES_FILE), 'utf8')))
      if (parsed.success) for (const [id, loads] of Object.entries(parsed.data.profiles)) byProfile.set(id, loads)
    } catch {
      // none yet, or unreadable
    }
    return new LoadTimes(home, byProfile)
  }

  /** The usual load time of this profile (median of its last loads), or null before its first. */
  expectedMs(profileId: string): number | null {
    return median(this.byProfile.get(profileId) ?? [])
  }

  loads(profileId: string): number {
    return this.byProfile.get(profileId)?.length ?? 0
  }

  /** Records one launch-to-ready time and writes the file; resolves when it is on disk. */
  record(profileId: string, ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) return this.writing
    const loads = [...(this.byProfile.get(profileId) ?? []), Math.round(ms)].slice(-KEEP)
    this.byProfile.set(profileId, loads)
    const data = `${JSON.stringify({ version: 1, profiles: Object.fromEntries(this.byProfile) })}\n`
    this.writing = this.writing.then(() => writeFileAtomic(join(this.home, LOAD_TIMES_FILE), data)).catch(() => {})
    return this.writing
  }
}
