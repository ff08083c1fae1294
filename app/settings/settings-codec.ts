import { z } from 'zod'
import { ON_GAME_SETTINGS } from '../contract/game'
import { DEFAULT_SETTINGS, type AppSettings } from '../contract/settings'
import type { Decoded, JsonCodec } from '../lib/json-store/json-codec'

export const SETTINGS_FILE_VERSION = 1

/** Each setting's rule; the file is checked one field at a time against these. */
export const SettingsFields = z.object({
  vramHeadroomMiB: z.number().int().min(0).max(65_536),
  gpuTemperatureWarnC: z.number().int().min(40).max(110),
  heavyApps: z.array(z.string().min(1).max(100)).max(200),
  pollIntervalMs: z.number().int().min(250).max(60_000),
  notifications: z.boolean(),
  startWithSystem: z.boolean(),
  modelDirs: z.array(z.string().min(1).max(4096)).max(50),
  startProfileOnLaunch: z.string().min(1).max(64).nullable(),
  hardwareAcceleration: z.boolean(),
  port: z.number().int().min(1).max(65_535),
  endpoint: z.boolean(),
  switchOnRequest: z.boolean(),
  heldRequestsMax: z.number().int().min(1).max(10_000),
  heldRequestWaitS: z.number().int().min(1).max(3600),
  switchDrainS: z.number().min(0).max(3600),
  switchMinResidencyS: z.number().min(0).max(3600),
  engineUpdateCheck: z.boolean(),
  endpointAllowedOrigins: z
    .array(
      z
        .string()
        .regex(/^https?:\/\/[^/]+\/?$/i)
        .max(2048),
    )
    .max(100),
  endpointAllowedHosts: z.array(z.string().min(1).max(253)).max(100),
  endpointMaxBodyMiB: z.number().int().min(1).max(1024),
  watchdogIntervalS: z.number().min(0).max(600),
  watchdogMisses: z.number().int().min(1).max(1000),
  // keep, stop, or a profile id (profile ids are 1–64 characters).
  onBattery: z.string().min(1).max(64),
  onGame: z.enum(ON_GAME_SETTINGS),
  gameGpuBusyPct: z.number().int().min(1).max(100),
  gameVramMiB: z.number().int().min(0).max(65_536),
  gameHoldS: z.number().int().min(1).max(3600),
  gameBackAfterS: z.number().int().min(0).max(3600),
  historyKeepMonths: z.number().int().min(1).max(120),
})

type Key = keyof AppSettings
const KEYS = Object.keys(SettingsFields.shape) as Key[]

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/**
 * Reads settings.json field by field: a missing field takes its default (new settings never break
 * old files), an invalid one takes its default with a notice naming it, and every other field is
 * kept. Only a file that is not a JSON object at all is unusable.
 */
export function decodeSettings(json: unknown): Decoded<AppSettings> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { kind: 'invalid', reason: 'not a JSON object' }
  const raw = json as Record<string, unknown>
  const notices: string[] = []
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS }
  for (const key of KEYS) {
    if (!(key in raw)) continue
    const checked = SettingsFields.shape[key].safeParse(raw[key])
    if (checked.success) settings[key] = checked.data
    else {
      const why = checked.error.issues[0]?.message ?? 'invalid'
      notices.push(
        `the setting "${key}" is ${shown(raw[key])}, which is not valid (${why}), so its default ${shown(DEFAULT_SETTINGS[key])} is ` +
          `used; set it again in Settings.`,
      )
    }
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'version' && !KEYS.includes(key as Key)) notices.push(`the setting "${key}" is not one Llama Tray knows, so it is ignored.`)
  }
  const version = raw.version ?? SETTINGS_FILE_VERSION
  if (typeof version === 'number' && version > SETTINGS_FILE_VERSION)
    return { kind: 'newer', value: settings as unknown as AppSettings, version }
  return { kind: 'ok', value: settings as unknown as AppSettings, notices }
}

export const settingsCodec: JsonCodec<AppSettings> = {
  decode: decodeSettings,
  encode: (settings) => ({ version: SETTINGS_FILE_VERSION, ...SettingsFields.parse(settings) }),
}
