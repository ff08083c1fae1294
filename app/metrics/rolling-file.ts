import { join } from 'node:path'
import { z } from 'zod'
import type { RequestTimings } from '../contract/generation'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
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
  energyJ: num.nullable().optional(),
})
const FileSchema = z.object({
  version: z.literal(1),
  profiles: z.array(z.object({ profileId: z.string().min(1), requests: z.array(RequestSchema) })),
})
type RollingFile = z.infer<typeof FileSchema>

const rollingCodec = versionedCodec({ schema: FileSchema, version: 1 })

/**
 * The one store of <home>/generation-history.json in this process. Only a cache of measurements:
 * a damaged file is set aside (`.corrupt-<time>`, named in the store's notices) and starts empty.
 */
export function rollingHistoryStore(home: string): JsonStore<RollingFile> {
  return openJsonStore<RollingFile>({
    path: join(home, ROLLING_FILE),
    label: 'generation history',
    codec: rollingCodec,
    defaults: () => ({ version: 1, profiles: [] }),
  })
}

/**
 * Each profile's recent requests from <home>/generation-history.json, so the speed-drop baseline and the rolling medians survive a restart.
 */
export async function loadRollingStore(home: string): Promise<ProfileRollingStore> {
  const store = new ProfileRollingStore()
  const file = await rollingHistoryStore(home).load()
  for (const p of file.profiles) for (const r of p.requests) store.add(p.profileId, r as RequestTimings)
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
      const data: RollingFile = { version: 1, profiles: this.store.entries() }
      // A failed write is only lost measurements: the next burst writes again.
      this.writing = this.writing
        .then(() => rollingHistoryStore(this.home).update(() => data))
        .then(
          () => undefined,
          () => undefined,
        )
    }
    await this.writing
  }
}
