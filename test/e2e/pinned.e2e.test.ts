import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// The Pin toggle and the pinned servers' rows, as a person clicks them: the built renderer in Chromium on a real
// core with the real llama-server on the tiny models.

let browser: Browser
let site: StaticServer
let session: DashboardSession | null = null

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)
afterAll(async () => {
  await session?.close()
  await browser?.close()
  await site?.close()
})

describe('pinned profiles in the dashboard', () => {
  it('the Pin toggle starts a server beside the active one, the Running view shows its row, unpinning removes it', async () => {
    session = await openDashboard(browser, site.url, { telemetry: null })
    const { core, page } = session
    const bin = llamaServerBin()
    for (const [name, extra] of [
      ['alpha', []],
      ['embed', ['--embeddings', '--pooling', 'mean']],
    ] as const) {
      const argv = [bin, '-m', model(name === 'alpha' ? 'tiny-target.gguf' : 'tiny-draft.gguf'), ...extra, '-c', '512', '-t', '1']
      const imported = await core.handlers['profiles:import'](formatCommandLine(argv), name)
      if (!imported.ok) throw new Error(imported.error.sentence)
    }
    await core.servePinned() // as the app does at start
    const started = await core.handlers['server:start']('alpha')
    if (!started.ok) throw new Error(started.error.sentence)

    await page.getByTestId('tab-profiles').click()
    const row = (id: string) => page.locator(`[data-testid="profile-row"][data-profile-id="${id}"]`)
    await row('embed').waitFor()
    expect(await row('alpha').getByTestId('profile-pin').count()).toBe(0) // the active profile runs already
    await row('embed').getByTestId('profile-pin').click()
    await row('embed').locator('[data-testid="profile-pin"][aria-pressed="true"]').waitFor()

    await page.getByTestId('tab-dashboard').click()
    const pinnedRow = page.locator('[data-testid="pinned-server"][data-profile-id="embed"]')
    await pinnedRow.filter({ hasText: 'ready' }).waitFor({ timeout: 120_000 })
    const view = core.snapshot().pinned?.[0]
    expect(await pinnedRow.textContent()).toBe(`embedready127.0.0.1:${view?.port}`)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha' })

    // Its own log, chosen in the log view: its own start line and port, not the active server's.
    await page.getByTestId('tab-logs').click()
    await page.getByTestId('log-server').selectOption('embed')
    const logText = async (): Promise<string> => (await page.getByTestId('log-lines').textContent()) ?? ''
    await expect.poll(logText, { timeout: 60_000 }).toContain(`--port ${view?.port}`)
    expect(await logText()).toContain('--embeddings')
    await page.getByTestId('log-server').selectOption('')
    await expect.poll(logText, { timeout: 60_000 }).not.toContain('--embeddings')

    // Killed, it is restarted by its own policy; its row says so.
    process.kill(view?.pid as number, 'SIGKILL')
    await page.getByTestId('tab-dashboard').click()
    await pinnedRow.getByTestId('pinned-figures').filter({ hasText: '1 restart' }).waitFor({ timeout: 120_000 })
    await pinnedRow.filter({ hasText: 'ready' }).waitFor({ timeout: 120_000 })
    const back = core.snapshot().pinned?.[0]
    expect(back).toMatchObject({ state: 'ready', restarts: 1 })
    expect(back?.pid).not.toBe(view?.pid)

    await page.getByTestId('tab-profiles').click()
    await row('embed').getByTestId('profile-pin').click()
    await page.getByTestId('tab-dashboard').click()
    await page.getByTestId('pinned-servers').waitFor({ state: 'detached' })
    expect(isRunning(back?.pid as number)).toBe(false)
  }, 300_000)
})
