import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SUMMARY_MAX_COLUMNS, SUMMARY_MAX_LINES } from '../diagnostics/summary'
import { readZipTexts } from '../../test/support/diagnostics/read-zip'
import { makeSecretHome, SECRETS, USER, type SecretHome } from '../../test/support/diagnostics/secret-home'
import { LlamaTrayCore } from './llama-tray-core'

// The dashboard's diagnostics:summary and diagnostics:save over the real core: its own state history (a launch
// of a missing binary that errors), the home holding a key in every supported way, and the app's environment
// with keys and tokens. The save dialog is main's; here a chooser answers what the user picked.
let fixture: SecretHome
let core: LlamaTrayCore
let answer: string | null = null
const suggested: string[] = []

beforeAll(async () => {
  fixture = await makeSecretHome()
  for (const [name, value] of Object.entries(fixture.env)) vi.stubEnv(name, value)
  core = await LlamaTrayCore.create({
    home: fixture.home,
    telemetry: null,
    appVersion: () => '9.8.7',
    chooseSavePath: async (name) => {
      suggested.push(name)
      return answer
    },
  })
  const exe = join(fixture.home, 'no-such-llama-server')
  const status = await core.startSpec({ profileId: 'inline', exe, args: ['--api-key', SECRETS.inline] })
  expect(status.state).toBe('errored')
})

afterAll(async () => {
  await core?.dispose()
  vi.unstubAllEnvs()
  if (fixture) await rm(fixture.home, { recursive: true, force: true })
})

function expectNoSecret(name: string, text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text.includes(secret), `${secret} in ${name}`).toBe(false)
  expect(text.toLowerCase().includes(USER), `${USER} in ${name}`).toBe(false)
}

describe('diagnostics:* over the core', () => {
  it('answers the one-screen summary with the server state it keeps, redacted', async () => {
    const result = await core.handlers['diagnostics:summary']()
    if (!result.ok) throw new Error(result.error.sentence)
    const lines = result.value.trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(SUMMARY_MAX_LINES)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(SUMMARY_MAX_COLUMNS)
    expect(lines[1]).toMatch(/^App 9\.8\.7 · Node /)
    expect(result.value).toMatch(/^Server: errored, profile inline, /m)
    expect(result.value).toMatch(/^States: \d\d:\d\d:\d\d starting → \d\d:\d\d:\d\d errored \(/m)
    expectNoSecret('the summary', result.value)
  })

  it('saves the zip where the dialog says, with the recent transitions, and nothing secret', async () => {
    answer = join(fixture.home, 'picked.zip')
    const result = await core.handlers['diagnostics:save']()
    expect(result).toEqual({ ok: true, value: answer })
    expect(suggested.at(-1)).toMatch(/^llama-tray-diagnostics-\d{8}-\d{6}\.zip$/)
    const entries = await readZipTexts(answer)
    for (const [name, text] of entries) expectNoSecret(name, text)
    const report = JSON.parse(entries.get('diagnostics.json') as string) as { server: { transitions: { state: string }[] } }
    expect(report.server.transitions.map((t) => t.state)).toEqual(['starting', 'errored'])
  })

  it('writes nothing when the dialog is cancelled, and refuses a folder that does not exist in one sentence', async () => {
    answer = null
    expect(await core.handlers['diagnostics:save']()).toEqual({ ok: true, value: null })
    answer = join(fixture.home, 'gone', 'd.zip')
    expect(await core.handlers['diagnostics:save']()).toEqual({
      ok: false,
      error: expect.objectContaining({
        sentence: `Cannot save the diagnostics to ${answer} because its folder does not exist: choose another file or folder.`,
      }),
    })
    expect(existsSync(join(fixture.home, 'gone'))).toBe(false)
  })
})
