import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_SETTINGS, type AppSettings } from '../app/contract/settings'
import { decodeSettings } from '../app/settings/settings-codec'
import { SETTINGS_FILE } from '../app/settings/settings-store'

/**
 * The settings that must be known before Electron is ready, read synchronously
 * from <home>/settings.json: hardware acceleration can only be turned off before
 * 'ready', so a change to that setting applies at the next start. Read field
 * by field like the core's SettingsStore (one bad field does not reset the
 * others); an unreadable file gives the defaults (acceleration off), and the
 * SettingsStore reports it and restores the backup right after.
 */
export function readBootSettings(home: string): AppSettings {
  try {
    const decoded = decodeSettings(JSON.parse(readFileSync(join(home, SETTINGS_FILE), 'utf8')))
    return decoded.kind === 'invalid' ? DEFAULT_SETTINGS : decoded.value
  } catch {
    return DEFAULT_SETTINGS
  }
}
