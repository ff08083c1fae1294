import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { EventEmitter } from 'node:events'
import { afterAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '../../contract/settings'
import { SETTING_KEYS } from '../../settings/setting-text'
import { UsageError } from '../cli-error'
import { settingsCommand } from './settings'

const root = mkdtempSync(join(tmpdir(), 'llama-tray-settings-command-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const freshHome = (): string => mkdtempSync(join(root, 'home-'))
const fileOf = (home: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as Record<string, unknown>

/** Runs `llama-tray settings …` in this process on a real home folder. */
async function settings(home: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.setEncoding('utf8').on('data', (c: string) => (out += c))
  stderr.setEncoding('utf8').on('data', (c: string) => (err += c))
  const code = await settingsCommand.run(args, { home, stdout, stderr, signals: new EventEmitter() })
  return { code, stdout: out, stderr: err }
}

/** A value other than the default for every setting, as a person types it, and what the file then holds. */
const CHANGES: Record<keyof AppSettings, [string[], unknown]> = {
  vramHeadroomMiB: [['2048'], 2048],
  gpuTemperatureWarnC: [['80'], 80],
  heavyApps: [
    ['obs64.exe', 'vlc'],
    ['obs64.exe', 'vlc'],
  ],
  pollIntervalMs: [['2000'], 2000],
  notifications: [['off'], false],
  startWithSystem: [['on'], true],
  modelDirs: [
    ['/models/a b', '/models/c'],
    ['/models/a b', '/models/c'],
  ],
  startProfileOnLaunch: [['qwen'], 'qwen'],
  hardwareAcceleration: [['yes'], true],
  port: [['18112'], 18112],
  endpoint: [['off'], false],
  switchOnRequest: [['false'], false],
  heldRequestsMax: [['8'], 8],
  heldRequestWaitS: [['60'], 60],
  switchDrainS: [['30'], 30],
  switchMinResidencyS: [['0'], 0],
  engineUpdateCheck: [['off'], false],
  endpointAllowedOrigins: [['https://chat.example'], ['https://chat.example']],
  endpointAllowedHosts: [['llm.home.arpa'], ['llm.home.arpa']],
  endpointMaxBodyMiB: [['64'], 64],
  watchdogIntervalS: [['0'], 0],
  watchdogMisses: [['3'], 3],
  onBattery: [['small'], 'small'],
  onGame: [['stop'], 'stop'],
  gameGpuBusyPct: [['70'], 70],
  gameVramMiB: [['2048'], 2048],
  gameHoldS: [['5'], 5],
  gameBackAfterS: [['60'], 60],
  historyKeepMonths: [['24'], 24],
}

describe('llama-tray settings (in process, real files)', () => {
  it('sets every setting, as typed on a command line, into the file', async () => {
    expect(Object.keys(CHANGES).sort()).toEqual([...SETTING_KEYS].sort()) // a new setting needs a row here
    const home = freshHome()
    for (const key of SETTING_KEYS) {
      const [words, stored] = CHANGES[key]
      const r = await settings(home, 'set', key, ...words)
      expect(r.stderr, key).toBe('')
      expect(r.code, key).toBe(0)
      expect(r.stdout, key).toMatch(new RegExp(`^Saved ${key} = .* in .*settings\\.json\\.\\n$`))
      expect(fileOf(home)[key], key).toEqual(stored)
    }
    const all = await settings(home, '--json')
    expect(JSON.parse(all.stdout)).toEqual(Object.fromEntries(SETTING_KEYS.map((k) => [k, CHANGES[k][1]])))
  })

  it.each([
    [['set', 'port', '0x50'], 'The port setting takes a whole number from 1 to 65535, like 8080; "0x50" is not one.'],
    [['set', 'port', '80.5'], 'The port setting takes a whole number from 1 to 65535, like 8080; "80.5" is not one.'],
    [['set', 'port', '80', '81'], 'The port setting takes a whole number from 1 to 65535, like 8080; "80 81" is not one.'],
    [['set', 'switchOnRequest', 'maybe'], 'The switchOnRequest setting takes on or off; "maybe" is not one.'],
    [['set', 'watchdogIntervalS', '-1'], 'The watchdogIntervalS setting takes a number from 0 to 600, like 10; "-1" is not one.'],
    [['set', 'heldRequestsMax', '0'], 'The heldRequestsMax setting takes a whole number from 1 to 10000, like 64; "0" is not one.'],
    [['set', 'port'], 'Give a value: llama-tray settings set port <value>.'],
    [['get'], 'Name a setting, like llama-tray settings get port (llama-tray settings lists them).'],
    [['get', 'nonsense'], 'There is no setting "nonsense"; llama-tray settings lists them.'],
    [['frob'], 'Unknown settings action "frob"; use llama-tray settings, settings get <key> or settings set <key> <value>.'],
  ])('refuses %j in one sentence and leaves the file as it was', async (args, sentence) => {
    const home = freshHome()
    const before = `${JSON.stringify({ version: 1, port: 9000 }, null, 2)}\n`
    writeFileSync(join(home, 'settings.json'), before)
    await expect(settings(home, ...args)).rejects.toThrow(new UsageError(sentence))
    expect(readFileSync(join(home, 'settings.json'), 'utf8')).toBe(before)
  })
})
