import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLiveAdvisor } from '../../app/advisor/live-advisor'
import { formatCommandLine } from '../../app/lib/command-line'
import { importArgv } from '../../app/profiles/import-command'
import { ProfileStore } from '../../app/profiles/store'
import type { TelemetryService } from '../../app/telemetry/telemetry-service'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model, REPO_ROOT } from '../helpers/paths'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { nextSnapshots, openDashboard, waitForState, type DashboardSession } from './dashboard-session'
import { fakeVramTelemetry } from './fake-vram-telemetry'
import { serveFolder, type StaticServer } from './static-server'

// The Running view's journeys, as a person clicks them: the built renderer in Chromium on a real core with
// the real live advisor and the real llama-server on the tiny models (issue 25: failures and fixes where the
// user looks, one warning at a time, no stale figures after Stop).

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')
let bin: string
let browser: Browser
let site: StaticServer
const sessions: DashboardSession[] = []

beforeAll(async () => {
  bin = llamaServerBin()
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  mkdirSync(SCREENSHOTS, { recursive: true })
}, 300_000)
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

/** A session whose core runs the real live advisor (its mutes in the session's home). */
async function open(telemetry: TelemetryService | null): Promise<DashboardSession> {
  const s = await openDashboard(browser, site.url, (home) => {
    const advisor = createLiveAdvisor({ home })
    return {
      telemetry,
      warnings: advisor.warnings,
      applyWarningFix: advisor.applyWarningFix,
      mutes: advisor.mutes,
      supervisor: { healthIntervalMs: 100 },
    }
  })
  sessions.push(s)
  return s
}

// One thread per test server: a busy machine slows it in proportion instead of stalling it.
const cmd = (...args: string[]): string => formatCommandLine([bin, ...args, '-t', '1'])

async function importProfile(s: DashboardSession, name: string, ...args: string[]): Promise<string> {
  const r = await s.core.handlers['profiles:import'](cmd(...args), name)
  if (!r.ok) throw new Error(r.error.sentence)
  return r.value.id
}

/** A profile stored as an older Llama Tray did, past the gate (an import now writes -lm none for --no-mmap at once). */
async function storeAsBefore(s: DashboardSession, name: string, ...args: string[]): Promise<string> {
  const profile = importArgv([bin, ...args, '-t', '1'], { name })
  await (await ProfileStore.open(s.home)).upsert(profile)
  return profile.id
}

/** What the page showed at one moment: the server's state, and whether the warning was there and marked "applies after restart". */
interface Seen {
  readonly state: string | null
  readonly present: boolean
  readonly marked: boolean
}

/**
 * Records every change the page shows (a MutationObserver in the page, so no moment between two polls is missed):
 * the server state and the warning, in order. Returns a function that reads what was seen so far.
 */
async function watchWarning(page: Page, warningId: string): Promise<() => Promise<Seen[]>> {
  await page.evaluate((id) => {
    // The page's DOM, typed here as far as it is used (the tests compile without the DOM library).
    interface Found {
      getAttribute(name: string): string | null
    }
    const w = globalThis as unknown as {
      __seen: Seen[]
      document: { body: unknown; querySelector(selector: string): Found | null }
      MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void }
    }
    w.__seen = []
    const look = (): void => {
      const warning = w.document.querySelector(`[data-testid="warning"][data-warning-id="${id}"]`)
      const seen = {
        state: w.document.querySelector('[data-testid="server-state"]')?.getAttribute('data-state') ?? null,
        present: warning !== null,
        marked: warning?.getAttribute('data-applies-after-restart') === 'true',
      }
      const last = w.__seen.at(-1)
      if (!last || last.state !== seen.state || last.present !== seen.present || last.marked !== seen.marked) w.__seen.push(seen)
    }
    look()
    new w.MutationObserver(look).observe(w.document.body, { subtree: true, childList: true, attributes: true, characterData: true })
  }, warningId)
  return () => page.evaluate(() => (globalThis as unknown as { __seen: Seen[] }).__seen)
}

describe('Running view journeys (Chromium, real core, real advisor, real llama-server)', () => {
  it('a switch to a profile with a flag this binary rejects: the header says it once, its button fixes and starts', async () => {
    const s = await open(null)
    const { page, core } = s
    const good = await importProfile(s, 'good', '-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1')
    const old = await storeAsBefore(s, 'old flags', '-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1', '--no-mmap')
    expect((await core.handlers['server:start'](good)).ok).toBe(true)
    await waitForState(page, 'ready')

    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'old flags' }).getByTestId('profile-start').click()
    const notice = page.getByTestId('failure-notice')
    await notice.waitFor({ timeout: 60_000 })
    const sentence = (await notice.getByTestId('failure').textContent()) ?? ''
    expect(sentence).toMatch(/^“old flags” did not start: .*--no-mmap/)
    expect(sentence).toContain(`llama-tray profiles fix ${old}`)
    expect(sentence).not.toMatch(/[.!?] [a-z]/)
    // Said once: not again under the profile list, not as a banner.
    await expect(page.getByTestId('start-error').count()).resolves.toBe(0)
    await expect(page.locator('[data-testid="warning"][data-warning-id^="live.server-failed"]').count()).resolves.toBe(0)
    // The old server runs on (the switch checked the flags before stopping it).
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: good })

    const fix = notice.getByTestId('failure-fix')
    await expect(fix.textContent()).resolves.toBe('Use -lm none and start')
    await fix.click()
    await page
      .getByTestId('active-profile')
      .and(page.locator(`[title="${old}"]`))
      .waitFor({ timeout: 120_000 })
    await waitForState(page, 'ready')
    await notice.waitFor({ state: 'detached' })
    const stored = await core.handlers['profiles:get'](old)
    expect(stored?.extraArgs).not.toContain('--no-mmap')
    expect(stored?.settings.loadMode).toBe('none')
  }, 300_000)

  it('a fix to the running profile stays up, marked "applies after restart", until the new settings run', async () => {
    const s = await open(null)
    const { page, core } = s
    // -c without -np: the real advisor's auto-slots finding, fixed by -np 1.
    const id = await importProfile(s, 'auto slots', '-m', model('tiny-target.gguf'), '-c', '2048')
    expect((await core.handlers['server:start'](id)).ok).toBe(true)
    await waitForState(page, 'ready')
    const warning = page.locator(`[data-testid="warning"][data-warning-id="lint.auto-slots@${id}"]`)
    await warning.waitFor({ timeout: 60_000 })
    await expect(warning.getByTestId('warning-fix-restart').textContent()).resolves.toBe('Apply and restart')
    // The fix's flag once: in its label, not again beside it.
    expect(((await warning.textContent()) ?? '').split('-np 1').length - 1).toBe(1)
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-warning.png') })
    // The advisor's headline in view; its reason, as it wrote it, behind "Why?".
    await expect(warning.locator('.warning-message').textContent()).resolves.toMatch(/^With -c 2048 and no -np, .*4 sequences.*\. Why\?$/)
    await warning.getByTestId('warning-why').click()
    await expect(warning.locator('.warning-rest').textContent()).resolves.toMatch(/^ They share the context .* For one user, set -np 1\.$/)
    await warning.getByTestId('warning-why').click()

    await warning.getByTestId('warning-fix').click() // "Apply later"
    await warning.and(page.locator('[data-applies-after-restart="true"]')).waitFor()
    expect((await core.handlers['profiles:get'](id))?.settings.parallel).toBe(1)
    // The server still runs -c 2048 without -np: the warning stays through the next snapshots.
    await nextSnapshots(core, 3)
    await expect(warning.getByTestId('applies-after-restart').textContent()).resolves.toBe('Applies after restart')

    const oldPid = core.server.getStatus().pid
    await warning.getByTestId('warning-restart').click()
    await warning.waitFor({ state: 'detached', timeout: 120_000 })
    // Gone only once a new process with the stored settings is ready.
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: id })
    expect(core.server.getStatus().pid).not.toBe(oldPid)
  }, 300_000)

  it('"Apply and restart" on a running profile: the warning stays marked through the restart, gone once the new settings run', async () => {
    const s = await open(null)
    const { page, core } = s
    // -c without -np: the real advisor's auto-slots finding, fixed by -np 1.
    const id = await importProfile(s, 'apply and restart', '-m', model('tiny-target.gguf'), '-c', '2048')
    expect((await core.handlers['server:start'](id)).ok).toBe(true)
    await waitForState(page, 'ready')
    const warningId = `lint.auto-slots@${id}`
    const warning = page.locator(`[data-testid="warning"][data-warning-id="${warningId}"]`)
    await warning.waitFor({ timeout: 60_000 })
    const oldPid = core.server.getStatus().pid
    expect(core.server.getLaunchSpec()?.args).not.toContain('-np')

    const seen = await watchWarning(page, warningId)
    await warning.getByTestId('warning-fix-restart').click()
    await warning.waitFor({ state: 'detached', timeout: 120_000 })
    await waitForState(page, 'ready')
    const shown = await seen()
    const steps = shown.map((x) => `${x.state}/${x.present ? (x.marked ? 'marked' : 'shown') : 'gone'}`)
    console.log(`[e2e] apply and restart, as the page showed it: ${steps.join(' → ')}`)
    // The restart was seen, the warning stayed (marked) through it, and it went only with the new server ready.
    const gone = shown.findIndex((x) => !x.present)
    expect(gone).toBeGreaterThan(0)
    expect(shown[gone]?.state).toBe('ready')
    const before = shown.slice(0, gone)
    expect(before.some((x) => x.state !== 'ready')).toBe(true)
    expect(before.filter((x) => x.state !== 'ready').every((x) => x.marked)).toBe(true)
    expect(shown.slice(gone).every((x) => !x.present)).toBe(true)
    // The server that is ready is a new one, with the fix.
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: id })
    expect(core.server.getStatus().pid).not.toBe(oldPid)
    expect(core.server.getLaunchSpec()?.args.join(' ')).toContain('-np 1')
    await expect(page.getByTestId('warning-fix-result').textContent()).resolves.toMatch(/^Restarted with the fix\./)
  }, 300_000)

  it('a healthy profile shows at most one banner, and after Stop no figure of the stopped server stays', async () => {
    // Free VRAM sinks under the headroom while it runs: the real advisor's low-VRAM warning.
    const s = await open(fakeVramTelemetry([3000, 3000, 900, 800, 760, 740]))
    const { page, core } = s
    // Three findings at once: auto slots (warn), low VRAM (warn, live), and whatever else the advisor sees.
    const id = await importProfile(s, 'busy', '-m', model('tiny-target.gguf'), '-c', '2048')
    expect((await core.handlers['server:start'](id)).ok).toBe(true)
    await waitForState(page, 'ready')
    await page
      .locator('[data-testid="warning"][data-warning-id^="live.vram-low"], [data-testid="warnings-more"]')
      .first()
      .waitFor({ timeout: 60_000 })
    await page.getByTestId('warnings-more').waitFor({ timeout: 60_000 })
    await expect(page.getByTestId('warning').count()).resolves.toBe(1)
    // "N more" counts, by level, the advisor's warnings other than the one in full (info-level ones are not banners).
    const folded = async (): Promise<string> => {
      const shown = ((await core.handlers['snapshot:latest']())?.warnings ?? []).filter((w) => w.level !== 'info')
      const errors = shown.filter((w) => w.level === 'error').length
      const warns = shown.filter((w) => w.level === 'warn').length - (errors === 0 ? 1 : 0)
      const parts = [
        errors > 1 ? `${errors - 1} error${errors - 1 > 1 ? 's' : ''}` : null,
        warns > 0 ? `${warns} warning${warns > 1 ? 's' : ''}` : null,
      ].filter(Boolean)
      return `${shown.length - 1} more (${parts.join(', ')})`
    }
    await expect.poll(async () => (await page.getByTestId('warnings-more').textContent()) === (await folded())).toBe(true)
    const advised = (await core.handlers['snapshot:latest']())?.warnings ?? []
    expect(advised.filter((w) => w.level !== 'info').length).toBeGreaterThan(1)
    // Info-level findings live in the profile's advisor list, never as banners.
    const info = advised.filter((w) => w.level === 'info' && w.profileId === id)
    console.log(`[e2e] advisor while running: ${advised.map((w) => `${w.level} ${w.id}`).join(', ')}`)
    expect(info.length).toBeGreaterThan(0)
    for (const w of info) await expect(page.locator(`[data-testid="warning"][data-warning-id="${w.id}"]`).count()).resolves.toBe(0)
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'busy' }).locator('.profile-select').click()
    const notes = (): Promise<(string | null)[]> =>
      page.getByTestId('advisor-note').evaluateAll((items) => items.map((i) => i.getAttribute('data-warning-id')))
    await expect.poll(notes).toEqual(expect.arrayContaining(info.map((w) => w.id)))
    expect((await notes()).filter((n) => !info.some((w) => w.id === n))).toEqual([])
    await page.getByTestId('tab-dashboard').click()

    await page.getByTestId('server-stop').click()
    await waitForState(page, 'stopped')
    await page.locator('[data-testid="warning"][data-warning-id^="live.vram-low"]').waitFor({ state: 'detached', timeout: 30_000 })
    await expect(page.getByTestId('live-rate').locator('.value').count()).resolves.toBe(0)
    await expect(page.locator('body').textContent()).resolves.not.toMatch(/-\d+(\.\d+)? MiB|measured 0\.0/)
    // What stays is about the profile's settings (the lint), not about the server that stopped.
    const left = await page.getByTestId('warning').evaluateAll((items) => items.map((i) => i.getAttribute('data-warning-id')))
    expect(left.filter((w) => !w?.startsWith('lint.'))).toEqual([])

    // The fit panel of the stopped profile: no budget below zero, no measurement of a server that is gone.
    const never = await importProfile(s, 'never run', '-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1')
    await page.getByTestId('tab-profiles').click()
    for (const [name, profileId] of [
      ['busy', id],
      ['never run', never],
    ] as const) {
      await page.getByTestId('profile-row').filter({ hasText: name }).locator('.profile-select').click()
      const fit = page.getByTestId('fit-panel')
      await fit.getByTestId('fit-budget').waitFor({ timeout: 60_000 })
      const text = (await fit.textContent()) ?? ''
      expect(text, `the fit panel of ${profileId}`).not.toMatch(/budget of -|-\d+(\.\d+)? MiB|measured 0\.0/)
      await expect(fit.getByTestId('fit-measured').count()).resolves.toBe(0)
    }
  }, 300_000)
})
