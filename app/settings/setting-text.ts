import { z } from 'zod'
import { DEFAULT_SETTINGS, type AppSettings } from '../contract/settings'
import { SettingsFields } from './settings-codec'
import { problem, type Problem } from '../contract/problem'

export type SettingKey = keyof AppSettings

export const SETTING_KEYS = Object.keys(SettingsFields.shape) as SettingKey[]

/** A value typed for a setting that its rule refuses: the sentence says what the setting takes. */
export class SettingValueError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SettingValueError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('settings', this.message)
  }
}

/** Element rules a schema cannot say in words by itself. */
const ITEM_WORDS: Partial<Record<SettingKey, string>> = {
  endpointAllowedOrigins: 'web origins like https://chat.example',
  endpointAllowedHosts: 'host names like llm.home.arpa',
  modelDirs: 'folders',
  heavyApps: 'process names like obs64.exe',
}

const TRUE = ['on', 'true', 'yes', '1']
const FALSE = ['off', 'false', 'no', '0']

/** What a setting takes, in words, read from its rule in the codec (the one place the rule lives). */
export function describeSetting(key: SettingKey): string {
  const schema = SettingsFields.shape[key] as z.ZodType
  const type = schema.def.type
  if (type === 'boolean') return 'on or off'
  if (type === 'number') {
    const n = schema as z.ZodNumber
    return `${n.isInt ? 'a whole number' : 'a number'} from ${n.minValue} to ${n.maxValue}, like ${String(DEFAULT_SETTINGS[key])}`
  }
  if (type === 'nullable') return 'a name, or none'
  if (type === 'enum') return `one of ${(schema as z.ZodEnum).options.join(', ')}`
  if (type === 'array') return `a list of ${ITEM_WORDS[key] ?? 'items'}, each its own argument (none for an empty list)`
  return 'a text'
}

/** Finds a setting by its file name (switchOnRequest) or as typed on a command line (switch-on-request). */
export function findSettingKey(typed: string): SettingKey | null {
  const plain = typed.replace(/[-_]/g, '').toLowerCase()
  return SETTING_KEYS.find((k) => k.toLowerCase() === plain) ?? null
}

function refuse(key: SettingKey, typed: string): never {
  throw new SettingValueError(`The ${key} setting takes ${describeSetting(key)}; "${typed}" is not one.`)
}

/**
 * The value the command-line words stand for, checked against the codec's rule for that setting.
 * Numbers are digits only (Number() would take "0x50" and "1e3"); a list is one word per item.
 */
export function settingValueFromText(key: SettingKey, words: readonly string[]): AppSettings[SettingKey] {
  const schema = SettingsFields.shape[key] as z.ZodType
  const type = schema.def.type
  const joined = words.join(' ')
  let value: unknown
  if (type === 'array') {
    value = words.length === 1 && (words[0] === 'none' || words[0] === '') ? [] : [...words]
  } else {
    if (words.length !== 1) refuse(key, joined)
    const word = words[0] as string
    if (type === 'boolean') {
      if (TRUE.includes(word.toLowerCase())) value = true
      else if (FALSE.includes(word.toLowerCase())) value = false
      else refuse(key, word)
    } else if (type === 'number') {
      if (!/^-?\d+(\.\d+)?$/.test(word)) refuse(key, word)
      value = Number(word)
    } else if (type === 'nullable') value = word === 'none' || word === '' ? null : word
    else value = word
  }
  const checked = schema.safeParse(value)
  if (!checked.success) {
    const bad = type === 'array' ? (words.find((w) => !schema.safeParse([w]).success) ?? joined) : joined
    refuse(key, bad)
  }
  return checked.data as AppSettings[SettingKey]
}

/** A value as `settings` prints it, in the words `settings set` takes back (a list: one item per line with `get`). */
export function settingValueText(value: AppSettings[SettingKey], listSeparator = ', '): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  if (value === null) return 'none'
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(listSeparator)
  return String(value)
}
