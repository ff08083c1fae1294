import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_SETTINGS, type AppSettings } from '../app/contract/settings'
import { SETTINGS_FILE, SettingsSchema } from '../app/settings/settings-store'

/**
 * The settings that must be known before Electron is ready, read synchronously
 * from <home>/settings.json: hardware acceleration can only be turned off before
 * 'ready', so a change to that setting applies at the next start. Anything
 * unreadable gives the defaults (acceleration off); the core's SettingsStore
 * reports and sets aside a corrupt file right after.
 */
export function readBootSettings(home: string): AppSettings {
  try {
    const parsed = SettingsSchema.safeParse(JSON.parse(readFileSync(join(home, SETTINGS_FILE), 'utf8')))
    return parsed.success ? { ...DEFAULT_SETTINGS, ...parsed.data } : DEFAULT_SETTINGS
  } catch {
    return DEFAULT_SETTINGS
  }
}
