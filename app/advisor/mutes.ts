import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../lib/atomic-write'

export const MUTES_FILE = 'advisor-mutes.json'

const MutesSchema = z.object({ version: z.literal(1), profiles: z.record(z.string(), z.array(z.string())) })

/**
 * Warnings the user muted, per profile, in <home>/advisor-mutes.json. A mute
 * names a rule ("live.heavy-apps") or one finding ("lint.duplicate-flag:-vhad").
 * An unreadable file means no mutes (it is only preferences) and is rewritten on the next change.
 */
export class MuteStore {
  private readonly profiles = new Map<string, Set<string>>()
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly home: string) {
    try {
      const parsed = MutesSchema.safeParse(JSON.parse(readFileSync(join(home, MUTES_FILE), 'utf8')))
      if (parsed.success) for (const [id, keys] of Object.entries(parsed.data.profiles)) this.profiles.set(id, new Set(keys))
    } catch {
      // no file yet, or unreadable: no mutes
    }
  }

  /** Whether a warning (its rule and its id without the profile) is muted for this profile. */
  isMuted(profileId: string, rule: string, key: string): boolean {
    const set = this.profiles.get(profileId)
    return set !== undefined && (set.has(rule) || set.has(key))
  }

  list(profileId: string): string[] {
    return [...(this.profiles.get(profileId) ?? [])].sort()
  }

  mute(profileId: string, key: string): Promise<void> {
    const set = this.profiles.get(profileId) ?? new Set<string>()
    set.add(key)
    this.profiles.set(profileId, set)
    return this.save()
  }

  unmute(profileId: string, key: string): Promise<void> {
    this.profiles.get(profileId)?.delete(key)
    return this.save()
  }

  private save(): Promise<void> {
    const data = { version: 1, profiles: Object.fromEntries([...this.profiles].filter(([, s]) => s.size > 0).map(([id, s]) => [id, [...s].sort()])) }
    const run = (): Promise<void> => writeFileAtomic(join(this.home, MUTES_FILE), `${JSON.stringify(data, null, 2)}\n`)
    const next = this.queue.then(run, run)
    this.queue = next.catch(() => {})
    return next
  }
}
