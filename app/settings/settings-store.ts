import { join } from 'node:path'
import { DEFAULT_SETTINGS, type AppSettings } from '../contract/settings'
import type { ChangeSource, JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
import { settingsCodec, SettingsFields } from './settings-codec'

export const SETTINGS_FILE = 'settings.json'

/** A change from the dashboard or the CLI: any subset of the settings, nothing else. */
export const SettingsSchema = SettingsFields.partial().strict()

/**
 * <home>/settings.json, one JsonStore per file in a process and one writer across processes.
 * Read field by field: a bad field falls back to its default with a notice naming it, the others
 * are kept; a file that cannot be read at all is moved aside and its .bak restored, with a notice.
 */
export class SettingsStore {
  private constructor(private readonly store: JsonStore<AppSettings>) {}

  static async open(home: string): Promise<SettingsStore> {
    const store = openJsonStore({ path: join(home, SETTINGS_FILE), label: 'settings file', codec: settingsCodec, defaults: () => DEFAULT_SETTINGS })
    await store.load()
    return new SettingsStore(store)
  }

  get path(): string {
    return this.store.path
  }

  get settings(): AppSettings {
    return this.store.value
  }

  /** Sentences about the latest read: settings that fell back to their defaults, a file set aside. */
  get messages(): readonly string[] {
    return this.store.notices
  }

  /** Called with the new settings whenever the file changes, in this process or another. */
  onDidChange(listener: (settings: AppSettings, source: ChangeSource) => void): () => void {
    return this.store.onDidChange(listener)
  }

  /** Validates and saves a change (on top of the file as it is now); resolves to the new settings or an error message. */
  async update(changes: unknown): Promise<{ ok: true; value: AppSettings } | { ok: false; error: string }> {
    const result = SettingsSchema.safeParse(changes)
    if (!result.success) return { ok: false, error: `invalid settings: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` }
    try {
      return { ok: true, value: await this.store.update((current) => ({ ...current, ...result.data })) }
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) }
    }
  }
}
