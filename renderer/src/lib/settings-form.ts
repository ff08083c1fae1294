import type { AppSettings } from '../../../app/contract/settings'
import { SETTING_LABELS } from '../../../app/contract/settings-labels'
import type { OnGameSetting } from '../../../app/contract/game'

type KeysOf<T> = { [K in keyof AppSettings]: AppSettings[K] extends T ? K : never }[keyof AppSettings]
export type NumberKey = KeysOf<number>
export type SwitchKey = KeysOf<boolean>
export type ListKey = KeysOf<readonly string[]>

/** The Settings view's groups; with startProfileOnLaunch (a select) they hold every setting (settings-form.test.ts checks). */
export const SERVER_NUMBERS: readonly NumberKey[] = [
  'port',
  'heldRequestsMax',
  'heldRequestWaitS',
  'switchDrainS',
  'switchMinResidencyS',
  'endpointMaxBodyMiB',
  'watchdogIntervalS',
  'watchdogMisses',
]
export const SERVER_SWITCHES: readonly SwitchKey[] = ['endpoint', 'switchOnRequest']
export const SERVER_LISTS: readonly ListKey[] = ['endpointAllowedOrigins', 'endpointAllowedHosts']
export const WARNING_NUMBERS: readonly NumberKey[] = ['vramHeadroomMiB', 'gpuTemperatureWarnC']
export const APP_NUMBERS: readonly NumberKey[] = ['pollIntervalMs', 'historyKeepMonths']
export const GAME_NUMBERS: readonly NumberKey[] = ['gameGpuBusyPct', 'gameVramMiB', 'gameHoldS', 'gameBackAfterS']
export const APP_SWITCHES: readonly SwitchKey[] = ['notifications', 'startWithSystem', 'hardwareAcceleration', 'engineUpdateCheck']
export const APP_LISTS: readonly ListKey[] = ['modelDirs']

export const NUMBER_KEYS: readonly NumberKey[] = [...SERVER_NUMBERS, ...WARNING_NUMBERS, ...APP_NUMBERS, ...GAME_NUMBERS]
export const SWITCH_KEYS: readonly SwitchKey[] = [...SERVER_SWITCHES, ...APP_SWITCHES]
/** heavyApps is a list too, shown beside the built-in list. */
export const LIST_KEYS: readonly ListKey[] = [...SERVER_LISTS, 'heavyApps', ...APP_LISTS]

/** What the form holds: numbers and lists as typed (checked on Save), switches as they are. */
export interface SettingsForm {
  readonly text: Readonly<Record<NumberKey | ListKey, string>>
  readonly switches: Readonly<Record<SwitchKey, boolean>>
  readonly startProfileOnLaunch: string
  /** keep, stop or a profile id. */
  readonly onBattery: string
  readonly onGame: OnGameSetting
}

export function formOf(s: AppSettings): SettingsForm {
  const text = {} as Record<NumberKey | ListKey, string>
  for (const key of NUMBER_KEYS) text[key] = String(s[key])
  for (const key of LIST_KEYS) text[key] = s[key].join('\n')
  const switches = {} as Record<SwitchKey, boolean>
  for (const key of SWITCH_KEYS) switches[key] = s[key]
  return { text, switches, startProfileOnLaunch: s.startProfileOnLaunch ?? '', onBattery: s.onBattery, onGame: s.onGame }
}

/**
 * The change Save sends, or the sentence saying which field is not a number. Ranges are the core's
 * to check (the settings file's own rules), and its sentence is shown as it comes.
 */
export function changesOf(form: SettingsForm): { ok: true; changes: Partial<AppSettings> } | { ok: false; error: string } {
  const changes: Record<string, unknown> = {
    ...form.switches,
    startProfileOnLaunch: form.startProfileOnLaunch || null,
    onBattery: form.onBattery,
    onGame: form.onGame,
  }
  for (const key of NUMBER_KEYS) {
    const typed = form.text[key].trim()
    if (!/^-?\d+(\.\d+)?$/.test(typed))
      return { ok: false, error: `${SETTING_LABELS[key]}: “${form.text[key]}” is not a number; type digits only.` }
    changes[key] = Number(typed)
  }
  // One item per line (folders may contain commas); heavy apps may also be separated by commas.
  for (const key of LIST_KEYS)
    changes[key] = form.text[key]
      .split(key === 'heavyApps' ? /[,\n]/ : '\n')
      .map((s) => s.trim())
      .filter(Boolean)
  return { ok: true, changes: changes as Partial<AppSettings> }
}
