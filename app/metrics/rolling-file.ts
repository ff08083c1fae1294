import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { RequestTimings } from '../contract/generation'
import { writeFileAtomic } from '../lib/atomic-write'
import { ProfileRollingStore } from './rolling-figures'

export const ROLLING_FILE = 'generation-history.json'

const num = z.number().finite()
const RequestSchema = z.object({
  time: num,
  slotId: num.nullable(),
  taskId: num.nullable(),
  promptTokens: num,
  promptMs: num,
  promptTokensPerSecond: num,
  predictedTokens: num,
  predictedMs: num,
  predictedTokensPerSecond: num,
  draftTokens: num.nullable(),
  draftAccepted: num.nullable(),
  draftAcceptance: num.nullable(),
})
const FileSchema = z.object({ version: z.literal(1), profiles: z.array(z.object({ profileId: z.string().min(1), requests: z.array(RequestSchema) })) })

/**
 * Each profile's recent requests in <home>/generation-history.json, so the
 * speed-drop baseline and the rolling medians survive a restart of the app.
 * Only a cache of measurements: an unreadable file starts empty.
 */
export async function loadRollingStore(home: string): Promise<ProfileRollingStore> {
  const store = new ProfileRollingStore()
  try {
    const parsed = FileSchema.safeParse(JSON.parse(await readFile(join(home, ROLLING_FILE), 'utf8')))
    if (parsed.success) for (const p of parsed.data.profiles) for (const r of p.requests) store.add(p.profileId, r as RequestTimings)
  } catch {
    // none yet, or unreadable
  }
  return store
}

/** Saves the store a moment after requests finish (one write per burst), and on flush. */
export class RollingSaver {
  private timer: NodeJS.Timeout | null = null
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly home: string,
    private readonly store: ProfileRollingStore,
    private readonly delayMs = 5000,
  ) {
    store.onAdd = () => this.schedule()
  }

  private schedule(): void {
    if (this.timer) return
    this.timer = setTimeout(() => void this.flush(), this.delayMs)
    this.timer.unref()
  }

  /** Writes now if anything changed since the last write; resolves when it is on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
      const data = `${JSON.stringify({ version: 1, profiles: this.store.entries() })}\n`
      this.writing = this.writing.then(() => writeFileAtomic(join(this.home, ROLLING_FILE), data)).catch(() => {})
    }
    await this.writing
  }
}
