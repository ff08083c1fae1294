import { copyFileSync, mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLiveAdvisor } from '../../app/advisor/live-advisor'
import { formatCommandLine } from '../../app/lib/command-line'
import { importArgv } from '../../app/profiles/import-command'
import { ProfileStore } from '../../app/profiles/store'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model, REPO_ROOT } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { bridgeCore } from './bridge'
import { launchChromium } from './browser'
import { openDashboard, waitForState, type DashboardSession } from './dashboard-session'
import { sharedRendererBuild } from './shared-renderer-build'
import { serveFolder, type StaticServer } from './static-server'

// The moments a user opens the tray for, walked in Chromium on the real core and the real llama-server (tiny
// models): a model file that moved, to a running profile through the fix; a failed switch seen from the popover.
// The dashboard and the popover are two pages on one core, as the app's two windows are.

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')

let browser: Browser
let site: StaticServer
const sessions: DashboardSession[] = []
const popovers: Page[] = []
const pids = new Set<number>()

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  mkdirSync(SCREENSHOTS, { recursive: true })
}, 300_000)

afterEach(async () => {
  for (const p of popovers.splice(0)) await p.context().close()
  for (const s of sessions.splice(0)) await s.close()
  for (const pid of pids) expect(isRunning(pid), `llama-server ${pid} left running`).toBe(false)
  pids.clear()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

/** A dashboard on a real core; with `advisor`, the live advisor's warnings too (the running profile's findings in the banner). */
async function open(advisor = false): Promise<DashboardSession> {
  const s = await openDashboard(browser, site.url, (home) => {
    if (!advisor) return { telemetry: null }
    const live = createLiveAdvisor({ home })
    return { telemetry: null, warnings: live.warnings, applyWarningFix: live.applyWarningFix, mutes: live.mutes }
  })
  sessions.push(s)
  s.core.on('server:state-changed', (st) => st.pid && pids.add(st.pid))
  return s
}

/** The tray popover as a second window on the same core. */
async function popover(s: DashboardSession): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 520 } })
  const page = await context.newPage()
  popovers.push(page)
  await bridgeCore(page, s.core)
  await page.goto(`${site.url}popover.html`)
  return page
}

const cmd = (...args: string[]): string => formatCommandLine([llamaServerBin(), ...args, '-t', '1'])

describe('the moments that matter, on the real core and llama-server', () => {
  it('a model file that moved: the header and the popover say where it is now, and one click runs the profile', async () => {
    const s = await open()
    const { core, page } = s
    const before = join(s.home, 'models', 'old')
    const after = join(s.home, 'models', 'new')
    mkdirSync(before, { recursive: true })
    mkdirSync(after, { recursive: true })
    copyFileSync(model('tiny-target.gguf'), join(before, 'moved.gguf'))
    const imported = await core.handlers['profiles:import'](cmd('-m', join(before, 'moved.gguf'), '-c', '4096', '-np', '1'), 'moved')
    if (!imported.ok) throw new Error(imported.error.sentence)
    renameSync(join(before, 'moved.gguf'), join(after, 'moved.gguf'))
    const pop = await popover(s)

    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'moved' }).getByTestId('profile-start').click()
    await waitForState(page, 'errored', 60_000)
    const sentence = 'The model file moved.gguf does not exist. Choose the file again, or check the -m path. Found moved.gguf in new.'
    await expect.poll(() => page.getByTestId('failure').locator('.error-cause').innerText()).toBe(sentence)
    // No path in the sentence: the path is in the details.
    expect(sentence).not.toContain(s.home)
    expect(await page.getByTestId('failure').locator('.error-details pre').textContent()).toContain(join(before, 'moved.gguf'))
    const fix = page.getByTestId('failure').getByTestId('problem-fix')
    expect(await fix.innerText()).toBe('Use moved.gguf from new')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-failed.png') })

    // The popover: the same sentence and the same button; the profile is marked failed, not active.
    await expect.poll(() => pop.getByTestId('failure').locator('.error-cause').innerText()).toBe(sentence)
    expect(await pop.getByTestId('failure').getByTestId('problem-fix').innerText()).toBe('Use moved.gguf from new')
    expect(await pop.getByTestId(`pop-profile-${imported.value.id}`).innerText()).toContain('failed')
    expect(await pop.getByTestId('live-rate').innerText()).toContain('not running')

    // One click (in the popover): the profile points at the file and runs.
    await pop.getByTestId('failure').getByTestId('problem-fix').click()
    await waitForState(page, 'ready')
    expect((await core.handlers['profiles:get'](imported.value.id))?.model).toBe(join(after, 'moved.gguf'))
    await pop.locator('[data-testid="server-state"][data-state="ready"]').waitFor()
    expect(await pop.getByTestId('failure').count()).toBe(0)
    expect(await pop.getByTestId(`pop-profile-${imported.value.id}`).innerText()).toContain('active')
  }, 300_000)

  it('a switch started in the dashboard that fails is said in the popover, with the same fix, while the old profile runs', async () => {
    const s = await open()
    const { core, page } = s
    const alpha = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1'), 'alpha')
    if (!alpha.ok) throw new Error(alpha.error.sentence)
    // Stored as an older Llama Tray did, without the gate: --no-mmap, which this llama-server rejects (-lm none now).
    const store = await ProfileStore.open(s.home)
    await store.upsert(
      importArgv([llamaServerBin(), '-m', model('tiny-draft.gguf'), '-c', '4096', '-np', '1', '-t', '1', '--no-mmap'], { name: 'beta' }),
    )
    const beta = store.find('beta')!.id
    expect((await core.handlers['server:start'](alpha.value.id)).ok).toBe(true)
    await waitForState(page, 'ready')
    const pop = await popover(s)
    await pop.locator('[data-testid="server-state"][data-state="ready"]').waitFor()
    expect(await pop.getByTestId('pop-failure').count()).toBe(0)

    // The switch, from the dashboard's profile list: refused before anything stopped.
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'beta' }).getByTestId('profile-start').click()
    await page.getByTestId('failure-notice').waitFor({ timeout: 60_000 })
    const header = await page.getByTestId('failure').locator('.error-cause').innerText()
    const headerFix = await page.getByTestId('failure-fix').innerText()
    // The popover: not "Running" all green, but the header's sentence and button.
    await pop.getByTestId('pop-failure').waitFor()
    expect(await pop.getByTestId('failure').locator('.error-cause').innerText()).toBe(header)
    expect(await pop.getByTestId('failure-fix').innerText()).toBe(headerFix)
    expect(core.server.getStatus().profileId).toBe(alpha.value.id)

    await pop.getByTestId('failure-fix').click()
    await expect.poll(() => core.server.getStatus().profileId, { timeout: 120_000 }).toBe(beta)
    await waitForState(page, 'ready')
    await pop.getByTestId('pop-failure').waitFor({ state: 'detached' })
  }, 300_000)

  it('a save of the running profile says it applies after restart until "Apply and restart" runs the new settings', async () => {
    const s = await open(true)
    const { core, page } = s
    const imported = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1'), 'running')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    expect((await core.handlers['server:start'](id)).ok).toBe(true)
    await waitForState(page, 'ready')
    const pop = await popover(s)
    await pop.locator('[data-testid="server-state"][data-state="ready"]').waitFor()
    expect(await page.getByTestId('saved-not-running').count()).toBe(0)

    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'running' }).locator('.profile-select').click()
    const editor = page.getByTestId('profile-editor')
    await editor.getByTestId('edit-ctxSize').fill('4096')
    // -c without -np: the advisor's auto-slots finding, which this save brings back.
    await editor.getByTestId('edit-parallel').fill('')
    await editor.getByTestId('edit-save').click()
    // Both windows: still Running (the old settings), and the save waits for a restart.
    await page.getByTestId('saved-not-running').waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('saved-not-running').innerText()).toContain('Applies after restart')
    // One finding appears once: in the banner (the running profile's warnings), not again beside Save.
    await page.locator(`[data-testid="warning"][data-warning-id="lint.auto-slots@${id}"]`).waitFor({ timeout: 60_000 })
    expect(await page.locator(`[data-warning-id="lint.auto-slots@${id}"]`).count()).toBe(1)
    expect(await page.getByTestId('save-findings').count()).toBe(0)
    expect(await page.getByTestId('edit-message').innerText()).not.toContain('warning')
    await pop.getByTestId('saved-not-running').waitFor()
    expect(await page.getByTestId('server-state').getAttribute('data-state')).toBe('ready')
    const oldPid = core.server.getStatus().pid

    await pop.getByTestId('apply-and-restart').click()
    await expect.poll(() => core.server.getStatus().pid, { timeout: 120_000 }).not.toBe(oldPid)
    await waitForState(page, 'ready')
    await page.getByTestId('saved-not-running').waitFor({ state: 'detached', timeout: 60_000 })
    await pop.getByTestId('saved-not-running').waitFor({ state: 'detached' })
    // The server runs what is stored now.
    const started = (await core.handlers['server:logs'](2000)).filter((l) => l.startsWith('[llama-tray] started '))
    expect(started.at(-1)).toMatch(/ -c 4096 /)

    // The figures go with their server: a stopped one leaves none behind.
    await expect.poll(async () => (await core.handlers['snapshot:latest']())?.generation ?? null, { timeout: 60_000 }).not.toBeNull()
    await core.handlers['server:stop']()
    await expect.poll(async () => (await core.handlers['snapshot:latest']())?.generation ?? null, { timeout: 60_000 }).toBeNull()
  }, 300_000)
})
