import type { Result } from '../../../app/contract/commands'
import type { AppSettings } from '../../../app/contract/settings'
import { api } from '../stores/api'

/** Saves settings; the new values come back through the pushed settings, never set here. */
export function saveSettings(changes: Partial<AppSettings>): Promise<Result<AppSettings>> {
  return api().settingsSet(changes)
}
