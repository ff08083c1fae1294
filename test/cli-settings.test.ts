import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../app/contract/settings'
import { SETTING_KEYS } from '../app/settings/setting-text'
import { runCli } from './helpers/cli'

const root = mkdtempSync(join(tmpdir(), 'llama-tray-cli-settings-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const freshHome = (): string => mkdtempSync(join(root, 'home-'))
const fileOf = (home: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as Record<string, unknown>

describe('llama-tray settings on the built CLI (issue #25)', () => {
  it('lists every setting with its value and what it does, and the built-in heavy apps', async () => {
    const r = await runCli(['--home', freshHome(), 'settings'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    for (const key of SETTING_KEYS)
      expect(
        lines.some((l) => l.startsWith(`${key} `)),
        key,
      ).toBe(true)
    expect(lines.find((l) => l.startsWith('port '))).toMatch(/^port +8080 +Port: the one port clients use/)
    expect(lines.find((l) => l.startsWith('switchOnRequest '))).toMatch(/^switchOnRequest +on /)
    expect(r.stdout).toMatch(/built in: Discord, Chrome,/)
  })

  it('--json prints the settings as the file has them', async () => {
    const r = await runCli(['--home', freshHome(), 'settings', '--json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(DEFAULT_SETTINGS)
  })

  it('gets one value, takes dashed names, and empties a list with none', async () => {
    const home = freshHome()
    expect((await runCli(['--home', home, 'settings', 'set', 'switch-on-request', 'off'])).code).toBe(0)
    expect((await runCli(['--home', home, 'settings', 'get', 'switchOnRequest'])).stdout).toBe('off\n')
    expect((await runCli(['--home', home, 'settings', 'set', 'heavyApps', 'a.exe', 'b'])).code).toBe(0)
    expect((await runCli(['--home', home, 'settings', 'get', 'heavy-apps'])).stdout).toBe('a.exe\nb\n')
    expect((await runCli(['--home', home, 'settings', 'get', 'heavyApps', '--json'])).stdout).toBe('["a.exe","b"]\n')
    expect((await runCli(['--home', home, 'settings', 'set', 'heavyApps', 'none'])).code).toBe(0)
    expect(fileOf(home).heavyApps).toEqual([])
  }, 120_000) // seven CLI processes: 2-4 s each on a busy 2-core machine

  it.each([
    [['set', 'port', '70000'], 'The port setting takes a whole number from 1 to 65535, like 8080; "70000" is not one.'],
    [
      ['set', 'endpointAllowedOrigins', 'https://ok.example', 'ftp://bad'],
      'The endpointAllowedOrigins setting takes a list of web origins like https://chat.example, each its own argument (none for an ' +
        'empty list); "ftp://bad" is not one.',
    ],
    [['set', 'prot', '8081'], 'There is no setting "prot" (did you mean port?); llama-tray settings lists them.'],
  ])('refuses settings %j in one sentence, exit 2, and leaves the file as it was', async (args, sentence) => {
    const home = freshHome()
    const before = `${JSON.stringify({ version: 1, port: 9000, heavyApps: ['x'] }, null, 2)}\n`
    writeFileSync(join(home, 'settings.json'), before)
    const r = await runCli(['--home', home, 'settings', ...args])
    expect(r.stderr).toBe(`llama-tray: ${sentence}\n`)
    expect(r.code).toBe(2)
    expect(readFileSync(join(home, 'settings.json'), 'utf8')).toBe(before)
  })
})
