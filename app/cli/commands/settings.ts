import { SETTING_LABELS } from '../../contract/settings-labels'
import type { AppSettings } from '../../contract/settings'
import { SettingsStore } from '../../settings/settings-store'
import {
  findSettingKey,
  SETTING_KEYS,
  SettingValueError,
  settingValueFromText,
  settingValueText,
  type SettingKey,
} from '../../settings/setting-text'
import { DEFAULT_HEAVY_APPS } from '../../telemetry/cpu/heavy-apps'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { closestName, didYouMean } from '../did-you-mean'
import { parseOptions } from '../parse-options'
import { SETTINGS_HELP } from './settings-help'

function keyOf(typed: string | undefined): SettingKey {
  if (typed === undefined) throw new UsageError('Name a setting, like llama-tray settings get port (llama-tray settings lists them).')
  const key = findSettingKey(typed)
  if (key) return key
  const guess = closestName(typed, SETTING_KEYS)
  const hint = guess ? ` (did you mean ${guess}?)` : ''
  throw new UsageError(`There is no setting "${typed}"${hint}; llama-tray settings lists them.`)
}

function listLines(settings: AppSettings): string[] {
  const width = Math.max(...SETTING_KEYS.map((k) => k.length)) + 2
  const valueWidth = 12
  return SETTING_KEYS.flatMap((key) => {
    const value = settingValueText(settings[key])
    const line = `${key.padEnd(width)}${value.padEnd(valueWidth)} ${SETTING_LABELS[key]}`
    if (key !== 'heavyApps') return [line]
    return [line, `${' '.repeat(width)}built in: ${DEFAULT_HEAVY_APPS.apps.map((a) => a.name).join(', ')}`]
  })
}

async function runSettings(args: readonly string[], io: CliContext): Promise<number> {
  const [sub, ...rest] = args
  const store = await SettingsStore.open(io.home)
  for (const notice of store.messages) io.stderr.write(`llama-tray: ${notice}\n`)
  if (sub === 'set') {
    const key = keyOf(rest[0])
    const words = rest[1] === '--' ? rest.slice(2) : rest.slice(1) // values may start with "-" (a list item, a number)
    if (words.length === 0) throw new UsageError(`Give a value: llama-tray settings set ${key} <value>.`)
    let value: AppSettings[SettingKey]
    try {
      value = settingValueFromText(key, words)
    } catch (err) {
      if (err instanceof SettingValueError) throw new UsageError(err.message)
      throw err
    }
    const saved = await store.update({ [key]: value })
    if (!saved.ok) {
      io.stderr.write(
        `llama-tray: The setting could not be saved in ${store.path}; check that the folder is writable ` +
          `(${saved.error.sentence.replace(/\.$/, '')}).\n`,
      )
      return 1
    }
    io.stdout.write(`Saved ${key} = ${settingValueText(saved.value[key])} in ${store.path}.\n`)
    return 0
  }
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, true)
  const settings = store.settings
  if (positionals[0] === 'get') {
    if (positionals.length > 2) throw new UsageError(`Settings get takes one setting; "${positionals[2]}" is one too many.`)
    const key = keyOf(positionals[1])
    io.stdout.write(values.json ? `${JSON.stringify(settings[key])}\n` : `${settingValueText(settings[key], '\n')}\n`)
    return 0
  }
  if (positionals.length > 0)
    throw new UsageError(
      `Unknown settings action "${positionals[0]}"${didYouMean(positionals[0] as string, ['get', 'set'])}; ` +
        'use llama-tray settings, settings get <key> or settings set <key> <value>.',
    )
  io.stdout.write(values.json ? `${JSON.stringify(settings, null, 2)}\n` : `${listLines(settings).join('\n')}\n`)
  return 0
}

export const settingsCommand: CliCommand = {
  ...SETTINGS_HELP,
  run: (args, context) => runSettings(args, context),
}
