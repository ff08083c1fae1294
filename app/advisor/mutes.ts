import { join } from 'node:path'
import { z } from 'zod'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'

export const MUTES_FILE = 'advisor-mutes.json'

const MutesSchema = z.object({ version: z.literal(1), profiles: z.record(z.string(), z.array(z.string())) })
type MutesFile = z.infer<typeof MutesSchema>

const mutesCodec = versionedCodec({ schema: MutesSchema, version: 1 })

/**
 * Warnings the user muted, per profile, in <home>/advisor-mutes.json. A mute
 * names a rule ("live.heavy-apps") or one finding ("lint.duplicate-flag:-vhad").
 * A damaged file means no mutes (it is only preferences): it is set aside
 * (`.corrupt-<time>`, named in `messages`) so that the user can restore it.
 */
export class MuteStore {
  private readonly store: JsonStore<MutesFile>
  /** Resolves once the file was read (the core waits for it before the first warnings). */
  readonly ready: Promise<void>

  constructor(home: string) {
    this.store = openJsonStore<MutesFile>({
      path: join(home, MUTES_FILE),
      label: 'warning mutes file',
      codec: mutesCodec,
      defaults: () => ({ version: 1, profiles: {} }),
    })
    // An unreadable file (permissions) leaves no mutes; the error comes back on the next mute.
    this.ready = this.store.load().then(
      () => undefined,
      () => undefined,
    )
  }

  /** Sentences about the latest read: a damaged file set aside, a backup restored. */
  get messages(): readonly string[] {
    return this.store.notices
  }

  /** Whether a warning (its rule and its id without the profile) is muted for this profile. */
  isMuted(profileId: string, rule: string, key: string): boolean {
    const keys = this.store.value.profiles[profileId] ?? []
    return keys.includes(rule) || keys.includes(key)
  }

  list(profileId: string): string[] {
    return [...(this.store.value.profiles[profileId] ?? [])].sort()
  }

  async mute(profileId: string, key: string): Promise<void> {
    await this.change(profileId, (keys) => new Set([...keys, key]))
  }

  async unmute(profileId: string, key: string): Promise<void> {
    await this.change(profileId, (keys) => new Set([...keys].filter((k) => k !== key)))
  }

  /** Changes one profile's mutes on top of the file as it is now; profiles with none are left out, keys sorted. */
  private change(profileId: string, edit: (keys: readonly string[]) => Set<string>): Promise<MutesFile> {
    return this.store.update((file) => {
      const keys = [...edit(file.profiles[profileId] ?? [])].sort()
      const profiles = { ...file.profiles, [profileId]: keys }
      return { version: 1, profiles: Object.fromEntries(Object.entries(profiles).filter(([, k]) => k.length > 0)) }
    })
  }
}
