import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { gatherProfileInput } from '../../app/advisor/lint-sources'
import { createLiveAdvisor } from '../../app/advisor/live-advisor'
import { renderArgs } from '../../app/profiles/profile-args'
import { lintArgs } from '../../app/advisor/rules'
import { ProfileStore } from '../../app/profiles/store'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { nextSnapshots, openDashboard, waitForState, type DashboardSession } from './dashboard-session'
import { fakeVramTelemetry } from './fake-vram-telemetry'
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
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]))
  root = mkdtempSync(join(tmpdir(), 'llama-tray-e2e-setup-choice-'))
  bin = join(root, 'bin')
  mkdirSync(bin)
  symlinkSync(llamaServerBin(), join(bin, 'llama-server'))
  const models = join(root, 'home', 'models')
  mkdirSync(models, { recursive: true })
  // Five GGUFs: the MTP one is the default (the largest); the user chooses the Q8_0 and one of the two drafts; the IQ4_NL
  // has another vocabulary, so no draft is offered for it.
  copyFileSync(model('tiny-target-mtp.gguf'), join(models, 'Big-Default-MTP.gguf'))
  copyFileSync(model('tiny-target.gguf'), join(models, 'Chosen-Q8_0.gguf'))
  copyFileSync(model('tiny-target-iq.gguf'), join(models, 'Other-IQ4_NL.gguf'))
  copyFileSync(model('tiny-draft.gguf'), join(models, 'tiny-draft.gguf'))
  copyFileSync(model('tiny-draft-qwen35.gguf'), join(models, 'tiny-draft-qwen35.gguf'))
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
  it('lists every GGUF with size and quant, offers only matching drafts, creates the chosen one with no warnings, ready', async () => {
    // The live advisor on a fake RTX 4060 Laptop (8 GB, 5,000 MiB free): Setup fits the profile to it, and the banner would
    // show any warning the advisor has about what Setup created.
    session = await openDashboard(browser, site.url, (home) => {
      const advisor = createLiveAdvisor({ home })
      return {
        telemetry: fakeVramTelemetry([5000]),
        warnings: advisor.warnings,
        applyWarningFix: advisor.applyWarningFix,
        mutes: advisor.mutes,
        supervisor: { healthIntervalMs: 50 },
      }
    })
    const { page, core, home } = session
    await page.getByTestId('first-run').waitFor({ timeout: 60_000 })
    process.env.PATH = `${bin}${delimiter}${saved.PATH ?? ''}`
    await page.getByTestId('first-run-look-again').click()
    await page.locator('[data-testid="first-run-engine"][data-done="true"]').waitFor({ timeout: 60_000 })
    const found = page.getByTestId('first-run-found-model')
    await expect.poll(() => found.count(), { timeout: 60_000 }).toBe(5)
    const listed = await found.evaluateAll((items) =>
      items.map((i) => [i.getAttribute('data-path')?.split('/').pop(), i.getAttribute('data-draft'), i.textContent?.trim()]),
    )
    expect(listed.map(([file, draft]) => [file, draft]).toSorted()).toEqual([
      ['Big-Default-MTP.gguf', 'false'],
      ['Chosen-Q8_0.gguf', 'false'],
      ['Other-IQ4_NL.gguf', 'false'],
      ['tiny-draft-qwen35.gguf', 'true'],
      ['tiny-draft.gguf', 'true'],
    ])
    // Each with its size and quant; the drafts say so.
    for (const [file, draft, text] of listed) {
      const quant = file === 'Other-IQ4_NL.gguf' ? 'IQ4_NL' : 'Q8_0'
      expect(text).toMatch(new RegExp(`^${file?.replace('.', '\\.')} [\\d.]+ MB · ${quant}${draft === 'true' ? ' · draft' : ''}`))
    }
    const choose = (file: string) =>
      page.locator(`[data-testid="first-run-found-model"][data-path$="/${file}"] [data-testid="first-run-model-choice"]`).check()
    // No draft matches the IQ4_NL's vocabulary: none is offered.
    await choose('Other-IQ4_NL.gguf')
    await expect(page.getByTestId('first-run-draft-choice').count()).resolves.toBe(0)
    // Both drafts match the Q8_0: offered, and the user takes one.
    await choose('Chosen-Q8_0.gguf')
    const draftChoice = page.getByTestId('first-run-draft-choice')
    await expect(draftChoice.locator('option').allTextContents()).resolves.toEqual([
      'None',
      expect.stringMatching(/^tiny-draft-qwen35\.gguf \([\d.]+ MB\)$/),
      expect.stringMatching(/^tiny-draft\.gguf \([\d.]+ MB\)$/),
    ])
    await draftChoice.selectOption({ label: (await draftChoice.locator('option').nth(2).textContent()) ?? '' })
    await page.getByTestId('first-run-create-start').click()
    await page.locator('[data-testid="tab-dashboard"][aria-selected="true"]').waitFor({ timeout: 60_000 })
    await waitForState(page, 'ready')
    const profiles = (await core.handlers['profiles:list']()).profiles
    expect(profiles.map((p) => p.model.split('/').pop())).toEqual(['Chosen-Q8_0.gguf'])
    const stored = (await ProfileStore.open(home)).find(profiles[0]?.id ?? '')
    if (!stored) throw new Error('the created profile is not stored')
    expect(stored.draftModel?.split('/').pop()).toBe('tiny-draft.gguf')
    expect(core.server.getLaunchSpec()?.args.join(' ')).toContain('--spec-type draft-simple')
    // No warn-level finding: from the advisor's lint of the stored profile, and from the live advisor while it runs.
    const { input } = await gatherProfileInput(home, stored, { platform: 'win32', laptop: true })
    const warned = lintArgs(input).filter((f) => f.level !== 'info')
    console.log(`[e2e] Setup's created profile: ${warned.length} warn-level findings (${renderArgs(stored).join(' ')})`)
    expect(warned.map((f) => f.id)).toEqual([])
    await nextSnapshots(core, 3)
    const live = (await core.handlers['snapshot:latest']())?.warnings ?? []
    expect(live.filter((w) => w.level !== 'info').map((w) => w.id)).toEqual([])
    await expect(page.getByTestId('warning').count()).resolves.toBe(0)
    await core.handlers['server:stop']()
  }, 300_000)
})
