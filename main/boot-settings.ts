import { DEFAULT_SETTINGS, type AppSettings } from '../app/contract/settings'
import { peekSettings } from '../app/settings/settings-store'

/**
 * The settings that must be known before Electron is ready, peeked at synchronously
 * through the settings store: hardware acceleration can only be turned off before
 * 'ready', so a change to that setting applies at the next start. Read field
 * by field like the core's SettingsStore (one bad field does not reset the
 * others); an unreadable file gives the defaults (acceleration off), and the
 * SettingsStore reports it and restores the backup right after.
 */
export function readBootSettings(home: string): AppSettings {
  try {
    const peeked = peekSettings(home, true)
    return peeked.kind === 'ok' || peeked.kind === 'newer' ? peeked.value : DEFAULT_SETTINGS
  } catch {
    return DEFAULT_SETTINGS
  }
}
