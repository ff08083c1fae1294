import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { SMALL, tinyTarget } from '../support/core/tiny-core'
import { llamaServerReleaseFiles } from '../helpers/llama-server-bin'
import { REPO_ROOT } from '../helpers/paths'
import { GitHubReleasesStandIn } from '../stand-ins/github-releases'
import { linuxTarGz } from '../stand-ins/release-archives'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// Settings → llama.cpp engines in Chromium over the real core: the release of
// the real llama-server (packed as llama.cpp's Linux tarball) from the GitHub
// stand-in, installed from the UI, used by a profile that starts to ready.
const TAG = 'v0.5.0'
// As in dashboard.e2e.test.ts: out/ on every run, docs/ with UPDATE_SCREENSHOTS=1.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')
let browser: Browser
let site: StaticServer
let gh: GitHubReleasesStandIn
const sessions: DashboardSession[] = []

beforeAll(async () => {
  gh = await new GitHubReleasesStandIn().start([
    {
      tag: TAG,
      publishedAt: '2026-11-28T12:00:00Z',
      assets: [{ name: `llama-${TAG}-bin-ubuntu-x64.tar.gz`, body: await linuxTarGz(TAG, llamaServerReleaseFiles()) }],
    },
  ])
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
  await gh?.close()
})

describe('llama.cpp engines in Settings (Chromium, real core)', () => {
  it(
    'installs llama.cpp from an empty home, lists it, refuses to remove it while a profile uses it, checks for updates, and the profile ' +
      'starts to ready',
    async () => {
      const s = await openDashboard(browser, site.url, {
        telemetry: null,
        supervisor: { healthIntervalMs: 50 },
        engines: { releases: { apiUrl: gh.apiUrl }, driver: async () => null },
      })
      sessions.push(s)
      const { page, core, home } = s
      await page.getByTestId('tab-settings').click()
      await page.getByTestId('engines-none').waitFor()
      expect(await page.getByTestId('engine-backend').inputValue()).toBe('auto')
      await page.getByTestId('engine-install').click()
      await expect(page.getByTestId('engine-message').textContent({ timeout: 60_000 })).resolves.toBe(
        `Installed: ${TAG}-cpu (llama.cpp ${TAG}, CPU).`,
      )
      const row = page.locator(`[data-testid="engine-row"][data-id="${TAG}-cpu"]`)
      await expect(row.textContent()).resolves.toMatch(
        new RegExp(`${TAG}-cpu · llama\\.cpp ${TAG} · CPU · [\\d.]+ MB · not used by a profile`),
      )
      await page.getByTestId('engines-section').screenshot({ path: join(SCREENSHOTS, 'dashboard-engines.png') })

      const path = join(home, 'engines', `${TAG}-cpu`, 'llama-server')
      // The profile comes in as a pasted command (the Profiles tab's import), through the core.
      const imported = await core.handlers['profiles:import'](formatCommandLine([path, '-m', tinyTarget, ...SMALL]), 'tiny')
      if (!imported.ok) throw new Error(imported.error.sentence)
      await page.getByTestId('tab-profiles').click()
      await page.getByTestId('tab-settings').click()
      await expect(row.textContent()).resolves.toContain('used by tiny')
      await row.getByTestId('engine-remove').click()
      await expect(page.getByTestId('engine-message').textContent()).resolves.toBe(
        `${TAG}-cpu is used by the profile "tiny": point it at another engine first, or remove it anyway with --force.`,
      )
      await page.getByTestId('engine-check-update').click()
      await expect(page.getByTestId('engine-message').textContent()).resolves.toBe(`Up to date: ${TAG} is the latest release.`)

      await page.getByTestId('tab-profiles').click()
      const profileRow = page.locator(`[data-testid="profile-row"][data-profile-id="${imported.value.id}"]`)
      await profileRow.getByTestId('profile-start').click()
      await page.getByTestId('server-state').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 })
      expect((await core.handlers['server:status']()).state).toBe('ready')
      await profileRow.getByTestId('profile-stop').click()
      await page.getByTestId('server-state').and(page.locator('[data-state="stopped"]')).waitFor({ timeout: 30_000 })
    },
  )

  it('shows the notice of a newer release, tries it on a profile through the safety gate (scripted bench), and rolls back in one click', async () => {
    gh.releases = [
      ...gh.releases,
      {
        tag: 'v0.5.1',
        publishedAt: '2026-11-30T12:00:00Z',
        assets: [
          {
            name: 'llama-v0.5.1-bin-ubuntu-x64.tar.gz',
            body: await linuxTarGz('v0.5.1', llamaServerReleaseFiles()),
          },
        ],
      },
    ]
    try {
      const faster = {
        median: { tokensPerSecond: 21, promptTokensPerSecond: 310 },
        tokensPerSecondSpread: { robustCvPct: 1 },
        promptTokensPerSecondSpread: { robustCvPct: 1 },
      }
      const before = { ...faster, median: { tokensPerSecond: 20, promptTokensPerSecond: 300 } }
      const s = await openDashboard(browser, site.url, {
        telemetry: null,
        supervisor: { healthIntervalMs: 50 },
        engines: {
          releases: { apiUrl: gh.apiUrl },
          driver: async () => null,
          gate: { runs: 1, tokens: 8, bench: async () => [before, faster] as const },
        },
      })
      sessions.push(s)
      const { page, core, home } = s
      const old = await core.handlers['engines:install']({ backend: 'cpu', tag: TAG })
      if (!old.ok) throw new Error(old.error.sentence)
      const imported = await core.handlers['profiles:import'](formatCommandLine([old.value.path, '-m', tinyTarget, ...SMALL]), 'tiny')
      if (!imported.ok) throw new Error(imported.error.sentence)

      await page.getByTestId('tab-settings').click()
      await expect(page.getByTestId('engine-update-notice').textContent({ timeout: 30_000 })).resolves.toMatch(
        /^llama\.cpp v0\.5\.1 is out \(installed: v0\.5\.0\)/,
      )
      await page.getByTestId('engine-update').click()
      await expect(page.getByTestId('engine-update-report').textContent({ timeout: 60_000 })).resolves.toMatch(
        /^"tiny" now runs llama\.cpp v0\.5\.1 \(v0\.5\.1-cpu\): generation 21\.0 vs 20\.0 tok\/s/,
      )
      expect((await core.handlers['profiles:get'](imported.value.id))?.binary).toBe(join(home, 'engines', 'v0.5.1-cpu', 'llama-server'))
      await page.getByTestId('engine-rollback').click()
      await expect(page.getByTestId('engine-message').textContent()).resolves.toBe(`Rolled back: the profile runs ${old.value.path} again.`)
      expect((await core.handlers['profiles:get'](imported.value.id))?.binary).toBe(old.value.path)
    } finally {
      gh.releases = gh.releases.filter((r) => r.tag === TAG)
    }
  })
})
