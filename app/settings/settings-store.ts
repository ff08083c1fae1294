import { join } from 'node:path'
import type { z } from 'zod'
import { DEFAULT_SETTINGS, type AppSettings } from '../contract/settings'
import type { ChangeSource, JsonStore, Peeked } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
import { settingsCodec, SettingsFields } from './settings-codec'
import { describeSetting, SETTING_KEYS, type SettingKey } from './setting-text'
import type { Result } from '../contract/commands'
import { failed, failedFrom } from '../lib/failed'

export const SETTINGS_FILE = 'settings.json'

/** A change from the dashboard or the CLI: any subset of the settings, nothing else. */
export const SettingsSchema = SettingsFields.partial().strict()

/** One sentence for a change the rules refuse: the first bad setting, what it takes, and the value given. */
function settingsRefusal(changes: unknown, error: z.ZodError): string {
  const issue = error.issues[0]
  const key = issue?.path[0]
  if (typeof key === 'string' && SETTING_KEYS.includes(key as SettingKey)) {
    const given = issue?.path
      .slice(1)
      .reduce<unknown>((v, step) => (v as Record<PropertyKey, unknown>)?.[step], (changes as Record<string, unknown>)[key])
    const text = typeof given === 'string' ? given : (JSON.stringify(given) ?? String(given))
    return (
      `The ${key} setting takes ${describeSetting(key as SettingKey)}; "${text.length > 60 ? `${text.slice(0, 57)}...` : text}" is not ` +
      `one.`
    )
  }
  if (issue?.code === 'unrecognized_keys') return `There is no setting "${issue.keys[0] ?? ''}"; nothing was saved.`
  return 'A settings change must be an object of settings by name; nothing was saved.'
}

/** The one JsonStore of <home>/settings.json in this process. */
function settingsJsonStore(home: string): JsonStore<AppSettings> {
  return openJsonStore({ path: join(home, SETTINGS_FILE), label: 'settings file', codec: settingsCodec, defaults: () => DEFAULT_SETTINGS })
}

/**
 * settings.json as it is now, read field by field like the store but never repaired or written:
 * for diagnostics, and synchronously (`sync`) for what Electron needs before it is ready.
 */
export function peekSettings(home: string, sync: true): Peeked<AppSettings>
export function peekSettings(home: string, sync?: false): Promise<Peeked<AppSettings>>
export function peekSettings(home: string, sync = false): Peeked<AppSettings> | Promise<Peeked<AppSettings>> {
  const store = settingsJsonStore(home)
  return sync ? store.peekSync() : store.peek()
}

/**
 * <home>/settings.json, one JsonStore per file in a process and one writer across processes.
 * Read field by field: a bad field falls back to its default with a notice naming it, the others
 * are kept; a file that cannot be read at all is moved aside and its .bak restored, with a notice.
 */
export class SettingsStore {
  private constructor(private readonly store: JsonStore<AppSettings>) {}

  static async open(home: string): Promise<SettingsStore> {
    const store = settingsJsonStore(home)
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
  async update(changes: unknown): Promise<Result<AppSettings>> {
    const result = SettingsSchema.safeParse(changes)
    if (!result.success) return failed('settings', settingsRefusal(changes, result.error))
    try {
      return { ok: true, value: await this.store.update((current) => ({ ...current, ...result.data })) }
    } catch (err) {
      return failedFrom(err)
    }
  }
}
