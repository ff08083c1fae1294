import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { call, type ClientAnswer } from '../support/endpoint/client'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { waitUntil } from '../helpers/processes'
import { bridgeCore } from './bridge'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// A click in the tray's popover while a client's stream runs: the same scheduler as the endpoint's requests, so the
// switch waits, the popover and the dashboard say when, "Keep" withdraws it, and "Switch now" cuts the stream with an
// error naming it.
// The built renderer in Chromium on a real core with the real llama-server on the tiny models.

let browser: Browser
let site: StaticServer
let session: DashboardSession | null = null
let dashboard: Page | null = null

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)
afterAll(async () => {
  await dashboard?.context().close()
  await session?.close()
  await browser?.close()
  await site?.close()
})

/** The wait as the scheduler words it: an estimate from the slot's tokens left and rate, else the drain bound. */
const WHEN = /(, about \d+ s| \(at most \d+ s(, the drain limit)?\))/.source

describe('a switch clicked while a stream runs', () => {
  it('waits for the stream, says when in both windows, the last click wins, "Keep" withdraws it, "Switch now" cuts it', async () => {
    session = await openDashboard(
      browser,
      `${site.url}popover.html`,
      { telemetry: null, supervisor: { readyTimeoutMs: 120_000 } },
      {
        width: 360,
        height: 520,
        colorScheme: 'light',
      },
    )
    const { core, page } = session
    const bin = llamaServerBin()
    // A context large enough for a stream that outlasts the clicks on any machine: "Switch now" ends it, not its length.
    const common = ['-c', '32768', '-np', '1', '-t', '1', '--seed', '1']
    for (const [name, file] of [
      ['alpha', 'tiny-target.gguf'],
      ['beta', 'tiny-draft.gguf'],
      ['gamma', 'tiny-target-iq.gguf'],
    ] as const) {
      const imported = await core.handlers['profiles:import'](formatCommandLine([bin, '-m', model(file), ...common]), name)
      if (!imported.ok) throw new Error(imported.error.sentence)
    }
    // No residency wait, and a drain limit the stream never reaches: only "Switch now" may cut it.
    const set = await core.handlers['settings:set']({ switchMinResidencyS: 0, switchDrainS: 3600 })
    if (!set.ok) throw new Error(set.error.sentence)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    const started = await core.handlers['server:start']('alpha')
    if (!started.ok) throw new Error(started.error.sentence)
    const alphaPid = core.server.getStatus().pid

    // The dashboard, a second window on the same core, shows the waiting switch in its header too.
    const context = await browser.newContext({ viewport: { width: 1100, height: 820 } })
    dashboard = await context.newPage()
    await bridgeCore(dashboard, core)
    await dashboard.goto(site.url)

    let firstToken!: () => void
    const streaming = new Promise<void>((resolve) => (firstToken = resolve))
    const body = { model: 'alpha', stream: true, max_tokens: 30_000, ignore_eos: true, messages: [{ role: 'user', content: 'Hi' }] }
    const stream: Promise<ClientAnswer> = call(listened.status.port, 'POST', '/v1/chat/completions', body, false, firstToken)
    await streaming

    await page.getByTestId('pop-profile-beta').click()
    await page.getByTestId('pop-start').click()
    const note = page.getByTestId('pop-pending-switch')
    await note.waitFor({ timeout: 60_000 })
    const said = new RegExp(`^Profile "beta" replaces "alpha" after 1 running request${WHEN}; "Switch now" cuts them\\.`)
    expect((await note.textContent())?.trim()).toMatch(said)
    const header = dashboard.getByTestId('pending-switch')
    await header.waitFor({ timeout: 60_000 })
    expect((await header.textContent())?.trim()).toMatch(said)
    console.log(`The popover said: ${(await note.textContent())?.trim()}`)
    // Nothing switched yet: the click waits for the stream.
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alphaPid })

    // The last choice wins: the dashboard's click for gamma replaces the popover's for beta, which hears it.
    await dashboard.getByTestId('tab-profiles').click()
    await dashboard.locator('[data-testid="profile-row"][data-profile-id="gamma"]').getByTestId('profile-start').click()
    const replaced = page.getByTestId('pop-control-error')
    await replaced.waitFor({ timeout: 60_000 })
    expect(await replaced.textContent()).toContain(
      'The switch to profile "beta" was replaced by a later choice of "gamma"; choose it again to switch to it.',
    )
    await note.filter({ hasText: 'Profile "gamma" replaces "alpha"' }).waitFor({ timeout: 60_000 })
    await header.filter({ hasText: 'Profile "gamma" replaces "alpha"' }).waitFor({ timeout: 60_000 })
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alphaPid })

    // "Keep alpha" in the dashboard's header withdraws the waiting switch: both notes go, alpha and its stream go on,
    // and the withdrawn click (the dashboard's own, for gamma) shows no failure.
    await header.getByTestId('keep-running').click()
    await note.waitFor({ state: 'detached', timeout: 60_000 })
    await header.waitFor({ state: 'detached', timeout: 60_000 })
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alphaPid })
    expect(await dashboard.getByRole('alert').count()).toBe(0)

    // Chosen again from the popover, gamma waits for the stream once more.
    await page.getByTestId('pop-profile-gamma').click()
    await page.getByTestId('pop-start').click()
    await note.filter({ hasText: 'Profile "gamma" replaces "alpha"' }).waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('pop-keep-running').textContent()).toBe('Keep alpha')
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alphaPid })

    await page.getByTestId('pop-switch-now').click()
    const answer = await stream
    const last = answer.events.at(-1) as { error?: { code?: string; message?: string } }
    expect(last.error?.code).toBe('switch_cut')
    expect(last.error?.message).toMatch(/^The server was switched from profile "alpha" to "gamma" with "Switch now" before this answer/)
    await page.locator('[data-testid="pop-profile-gamma"] .pop-active-mark').waitFor({ timeout: 120_000 })
    const gamma = (): boolean => core.server.getStatus().state === 'ready' && core.server.getStatus().profileId === 'gamma'
    await waitUntil(gamma, 120_000, 'gamma to be ready')
    await note.waitFor({ state: 'detached' })
    await header.waitFor({ state: 'detached' })
    // The dashboard's click succeeded: its row shows no refusal, and the header no start failure.
    expect(await dashboard.getByRole('alert').count()).toBe(0)
  }, 600_000)
})
