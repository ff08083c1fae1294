import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { readZipTexts } from '../support/diagnostics/read-zip'
import { makeSecretHome, SECRETS, USER } from '../support/diagnostics/secret-home'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// Settings → Diagnostics in Chromium over the real core, in a home holding a key in every supported way and
// an environment with keys and tokens: Copy puts the redacted summary on the clipboard, Save writes the zip
// where the save dialog (main's; here a chooser) says.
let browser: Browser
let site: StaticServer
const sessions: DashboardSession[] = []
let answer: string | null = null

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close()
  vi.unstubAllEnvs()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

async function open(): Promise<DashboardSession> {
  const chooseSavePath = async (name: string): Promise<string | null> => (answer === null ? null : join(answer, name))
  const s = await openDashboard(browser, site.url, { telemetry: null, appVersion: () => '9.8.7', chooseSavePath })
  sessions.push(s)
  const fixture = await makeSecretHome(s.home)
  for (const [name, value] of Object.entries(fixture.env)) vi.stubEnv(name, value)
  await s.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url })
  await s.page.getByTestId('tab-settings').click()
  return s
}

function expectNoSecret(name: string, text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text.includes(secret), `${secret} in ${name}`).toBe(false)
  expect(text.toLowerCase().includes(USER), `${USER} in ${name}`).toBe(false)
}

describe('Diagnostics in Settings (Chromium, real core)', () => {
  it('copies the redacted one-screen summary to the clipboard', async () => {
    const { page } = await open()
    await page.getByTestId('diagnostics-copy').click()
    const message = page.getByTestId('diagnostics-message')
    await expect(message.textContent()).resolves.toMatch(/^Copied the summary \(\d+ lines\): paste it into your issue\.$/)
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string
    expect(copied.split('\n')[1]).toMatch(/^App 9\.8\.7 · Node /)
    expect(copied).toContain('Active profile: inline (inline)')
    expectNoSecret('the clipboard', copied)
  })

  it('saves the zip where the dialog says, and says nothing when it is cancelled', async () => {
    const { page, home } = await open()
    answer = home
    await page.getByTestId('diagnostics-save').click()
    const text = await page.getByTestId('diagnostics-message').textContent()
    const saved = /^Saved (.+\.zip)\.$/.exec(text ?? '')?.[1]
    expect(saved).toMatch(new RegExp(`^${home}/llama-tray-diagnostics-\\d{8}-\\d{6}\\.zip$`))
    const entries = await readZipTexts(saved as string)
    expect([...entries.keys()]).toEqual(['summary.txt', 'diagnostics.json', 'llama-server.log'])
    for (const [name, body] of entries) expectNoSecret(name, body)
    answer = null
    await page.getByTestId('diagnostics-save').click()
    // The click clears the message in the same render that disables the buttons; they come back when the answer is in.
    await page.getByTestId('diagnostics-message').waitFor({ state: 'detached' })
    await page.getByTestId('diagnostics-save').and(page.locator(':enabled')).waitFor()
    expect(await page.getByTestId('diagnostics-message').count()).toBe(0)
  })
})
