import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { gatherProfileInput } from '../../app/advisor/lint-sources'
import { lintArgs } from '../../app/advisor/rules'
import { ProfileStore } from '../../app/profiles/store'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model, REPO_ROOT } from '../helpers/paths'
import { launchChromium } from './browser'
import { buildRenderer } from './build-renderer'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// Issue #25 journey: Setup on a machine with several models (llama-server on PATH, GGUFs in ~/models) lists every
// GGUF, the user chooses one that is not the default, and the created profile serves that one, has no warn-level
// finding from our own advisor, and reaches ready on the real llama-server.
const ENV_KEYS = ['HOME', 'PATH', 'HF_HOME', 'HF_HUB_CACHE', 'XDG_CACHE_HOME'] as const
let browser: Browser
let site: StaticServer
let root: string
let saved: Record<string, string | undefined>
let session: DashboardSession | null = null
let bin: string

beforeAll(async () => {
  site = await serveFolder(await buildRenderer(join(REPO_ROOT, 'out', 'renderer-setup-choice')))
  browser = await launchChromium()
  saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]))
  root = mkdtempSync(join(tmpdir(), 'llama-tray-e2e-setup-choice-'))
  bin = join(root, 'bin')
  mkdirSync(bin)
  symlinkSync(llamaServerBin(), join(bin, 'llama-server'))
  const models = join(root, 'home', 'models')
  mkdirSync(models, { recursive: true })
  // The largest is the default; the user chooses the smaller Q8_0.
  copyFileSync(model('tiny-target-mtp.gguf'), join(models, 'Big-Default-MTP.gguf'))
  copyFileSync(model('tiny-target.gguf'), join(models, 'Chosen-Q8_0.gguf'))
  copyFileSync(model('tiny-draft.gguf'), join(models, 'tiny-draft.gguf'))
  process.env.HOME = join(root, 'home')
  // No llama-server on PATH at first, so the app opens on Setup; it appears before the user looks again.
  process.env.PATH = saved.PATH ?? ''
  process.env.HF_HOME = join(root, 'hf')
  delete process.env.HF_HUB_CACHE
  delete process.env.XDG_CACHE_HOME
}, 900_000)

afterEach(async () => {
  await session?.close()
  session = null
})

afterAll(async () => {
  await browser?.close()
  await site?.close()
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k]
    else process.env[k] = saved[k]
  }
  rmSync(root, { recursive: true, force: true })
})

describe('Setup in Chromium: choose the model', () => {
  it('lists every GGUF (the draft as a draft), creates the chosen one with no warnings, and it gets ready', async () => {
    session = await openDashboard(browser, site.url, { telemetry: null, supervisor: { healthIntervalMs: 50 } })
    const { page, core, home } = session
    await page.getByTestId('first-run').waitFor({ timeout: 60_000 })
    process.env.PATH = `${bin}${delimiter}${saved.PATH ?? ''}`
    await page.getByTestId('first-run-look-again').click()
    await page.locator('[data-testid="first-run-engine"][data-done="true"]').waitFor({ timeout: 60_000 })
    const found = page.getByTestId('first-run-found-model')
    await expect.poll(() => found.count(), { timeout: 60_000 }).toBe(3)
    const listed = await found.evaluateAll((items) =>
      items.map((i) => [i.getAttribute('data-path')?.split('/').pop(), i.getAttribute('data-draft')]),
    )
    expect(listed.toSorted()).toEqual([
      ['Big-Default-MTP.gguf', 'false'],
      ['Chosen-Q8_0.gguf', 'false'],
      ['tiny-draft.gguf', 'true'],
    ])
    await page
      .locator('[data-testid="first-run-found-model"][data-path$="Chosen-Q8_0.gguf"] [data-testid="first-run-model-choice"]')
      .check()
    await page.getByTestId('first-run-create-start').click()
    await page.locator('[data-testid="tab-dashboard"][aria-selected="true"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('server-state').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 120_000 })
    const profiles = (await core.handlers['profiles:list']()).profiles
    expect(profiles.map((p) => p.model.split('/').pop())).toEqual(['Chosen-Q8_0.gguf'])
    const stored = (await ProfileStore.open(home)).find(profiles[0]?.id ?? '')
    if (!stored) throw new Error('the created profile is not stored')
    const { input } = await gatherProfileInput(home, stored, { platform: 'win32', laptop: true })
    expect(
      lintArgs(input)
        .filter((f) => f.level !== 'info')
        .map((f) => f.id),
    ).toEqual([])
    await core.handlers['server:stop']()
  }, 300_000)
})
