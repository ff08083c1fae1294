import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { llamaServerReleaseFiles } from '../helpers/llama-server-bin'
import { REPO_ROOT } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { GitHubReleasesStandIn, type StandInRelease } from '../stand-ins/github-releases'
import { HfHubStandIn, recipeStandInRepos, startTinyHub } from '../stand-ins/hf-hub'
import { linuxTarGz } from '../stand-ins/release-archives'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// The first run in Chromium over a real core: an empty home on a machine with
// no llama-server and no model, GITHUB_API_URL pointing at the GitHub
// stand-in (the real llama-server packed as llama.cpp's Linux tarball) and
// HF_ENDPOINT at the Hub stand-in (the tiny fixture models).
const TAG = 'v0.5.0'
const ASSET = `llama-${TAG}-bin-ubuntu-x64.tar.gz`
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')
const ENV_KEYS = ['HOME', 'HF_HOME', 'HF_HUB_CACHE', 'XDG_CACHE_HOME', 'HF_ENDPOINT', 'HF_TOKEN', 'GITHUB_API_URL', 'GITHUB_TOKEN'] as const
const REPO = 'test-org/Tiny-GGUF'
const GGUF = 'tiny-target-Q4_K_M.gguf'
let browser: Browser
let site: StaticServer
let gh: GitHubReleasesStandIn
let hub: HfHubStandIn
let good: StandInRelease
let root: string
let saved: Record<string, string | undefined>
const sessions: DashboardSession[] = []
const pids = new Set<number>()

beforeAll(async () => {
  const tarball = await linuxTarGz(TAG, llamaServerReleaseFiles())
  good = { tag: TAG, publishedAt: '2026-11-28T12:00:00Z', assets: [{ name: ASSET, body: tarball }] }
  gh = await new GitHubReleasesStandIn().start([good])
  hub = await startTinyHub(recipeStandInRepos())
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  mkdirSync(SCREENSHOTS, { recursive: true })
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  await gh?.close()
  await hub?.close()
})

beforeEach(() => {
  // Discovery reads this process's environment: a fresh user home (no ~/models, no Hugging Face cache) and the stand-in's API.
  saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]))
  root = mkdtempSync(join(tmpdir(), 'llama-tray-e2e-first-run-'))
  mkdirSync(join(root, 'home'))
  process.env.HOME = join(root, 'home')
  process.env.HF_HOME = join(root, 'hf')
  delete process.env.HF_HUB_CACHE
  delete process.env.XDG_CACHE_HOME
  delete process.env.HF_TOKEN
  process.env.HF_ENDPOINT = hub.origin
  process.env.GITHUB_API_URL = gh.apiUrl
  process.env.GITHUB_TOKEN = ''
  gh.releases = [good]
})

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close()
  for (const pid of pids) expect(isRunning(pid), `llama-server ${pid} left running`).toBe(false)
  pids.clear()
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k]
    else process.env[k] = saved[k]
  }
  rmSync(root, { recursive: true, force: true })
}, 120_000)

async function open(): Promise<DashboardSession> {
  const s = await openDashboard(browser, site.url, { telemetry: null, supervisor: { healthIntervalMs: 50 } })
  sessions.push(s)
  s.core.on('server:state-changed', (st) => st.pid && pids.add(st.pid))
  return s
}

async function state(page: Page, expected: string, timeout = 120_000): Promise<void> {
  await page
    .getByTestId('server-state')
    .and(page.locator(`[data-state="${expected}"]`))
    .waitFor({ timeout })
}

/** What <home>/engines holds, work folders included: a refused install leaves nothing. */
function enginesFolder(home: string): string[] {
  try {
    return readdirSync(join(home, 'engines'))
  } catch {
    return []
  }
}

describe('the first run in Chromium over the real core and llama-server', () => {
  it(
    'from an empty home: opens on the first-run view, installs llama.cpp and pulls a model with progress bars, then creates a profile ' +
      'and starts it to ready',
    async () => {
      const { core, page, home } = await open()
      const started = Date.now()

      await page.getByTestId('first-run').waitFor({ timeout: 60_000 })
      await page.locator('[data-testid="tab-start"][aria-selected="true"]').waitFor()
      expect(await page.getByTestId('first-run-engine').getAttribute('data-done')).toBe('false')
      expect(await page.getByTestId('first-run-model').getAttribute('data-done')).toBe('false')
      const install = page.getByTestId('engine-install')
      const size = (good.assets[0]?.body.length ?? 0) / 1e6
      await expect
        .poll(() => install.textContent(), { timeout: 60_000 })
        .toBe(`Install llama.cpp (CPU, ~${size.toFixed(size >= 100 ? 0 : 1)} MB)`)
      await expect(page.getByTestId('engine-plan').textContent()).resolves.toBe(`No NVIDIA GPU found: llama.cpp ${TAG}, the CPU build.`)
      expect(await page.getByTestId('first-run-create-start').isDisabled()).toBe(true)
      await page.getByText('llama-tray engines install').waitFor()

      // The download is held in the middle: the bar shows the bytes so far (the first chunk is always reported,
      // later ones at most every 100 ms) against the release's size, with its text.
      let release = (): void => {}
      const half = Math.floor((good.assets[0]?.body.length ?? 0) / 2)
      gh.pauseNext.set(ASSET, { bytes: half, until: new Promise<void>((r) => (release = r)) })
      await install.click()
      try {
        const bar = page.getByTestId('engine-progress-bar')
        await bar.waitFor({ timeout: 60_000 })
        const value = Number(await bar.getAttribute('value'))
        expect(value).toBeGreaterThan(0)
        expect(value).toBeLessThanOrEqual(half)
        expect(Number(await bar.getAttribute('max'))).toBe(good.assets[0]?.body.length)
        expect(await bar.getAttribute('aria-valuetext')).toMatch(/^[\d.]+ [kMG]B of [\d.]+ MB( · [\d.]+ [kMG]B\/s)?$/)
        await expect(page.getByTestId('engine-progress').textContent()).resolves.toContain(`Downloading ${ASSET}`)
      } finally {
        release()
      }
      await page.locator('[data-testid="first-run-engine"][data-done="true"]').waitFor({ timeout: 120_000 })
      const installedPath = join(home, 'engines', `${TAG}-cpu`, 'llama-server')
      await expect(page.getByTestId('first-run-binary').first().getAttribute('data-path')).resolves.toBe(installedPath)
      await expect(page.getByTestId('first-run-engine').textContent()).resolves.toContain(`Installed llama.cpp ${TAG} (CPU).`)

      // A malformed name is answered at once; then the model, held in the middle too.
      await page.getByTestId('model-ref').fill('Qwen3 0.6B')
      await page.getByTestId('model-pull').click()
      await expect(page.getByTestId('model-error').locator('.error-cause').textContent()).resolves.toBe(
        '“Qwen3 0.6B” is not a Hugging Face model name: write it as org/repo:quant, for example ggml-org/Qwen3-0.6B-GGUF:Q4_K_M.',
      )
      await page.getByTestId('model-ref').fill(`${REPO}:q4_k_m`)
      await page.getByText(`llama-tray models pull ${REPO}:q4_k_m`).waitFor()
      const gguf = hub.repo(REPO).files.find((f) => f.path === GGUF)
      let releaseModel = (): void => {}
      hub.faultNext(REPO, GGUF, {
        pauseAfter: { bytes: Math.floor((gguf?.size ?? 0) / 2), until: new Promise<void>((r) => (releaseModel = r)) },
      })
      await page.getByTestId('model-pull').click()
      try {
        const bar = page.getByTestId('model-progress-bar')
        await bar.waitFor({ timeout: 60_000 })
        expect(Number(await bar.getAttribute('max'))).toBe(gguf?.size)
        expect(Number(await bar.getAttribute('value'))).toBeGreaterThan(0)
        await expect(page.getByTestId('model-progress').textContent()).resolves.toContain(`Downloading ${GGUF}`)
        // The screenshot: llama.cpp installed for this machine, the model on its way.
        await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-first-run.png') })
      } finally {
        releaseModel()
      }
      await expect(page.getByTestId('model-pulled').textContent({ timeout: 120_000 })).resolves.toMatch(
        new RegExp(`^Downloaded: ${GGUF} from ${REPO} \\([\\d.]+ MB, sha256 checked\\)\\.$`),
      )
      await page.locator('[data-testid="first-run-model"][data-done="true"]').waitFor({ timeout: 60_000 })
      const pulledPath = join(root, 'hf', 'hub', `models--${REPO.replace('/', '--')}`, 'snapshots', hub.repo(REPO).commit, GGUF)
      await expect(page.getByTestId('first-run-found-model').first().getAttribute('data-path')).resolves.toBe(pulledPath)

      await page.getByTestId('first-run-create-start').click()
      await page.locator('[data-testid="tab-dashboard"][aria-selected="true"]').waitFor({ timeout: 60_000 })
      await state(page, 'ready')
      const profiles = (await core.handlers['profiles:list']()).profiles
      expect(profiles.map((p) => [p.binary, p.model])).toEqual([[installedPath, pulledPath]])
      await expect(page.getByTestId('active-profile').textContent()).resolves.toBe(profiles[0]?.name)
      // Once started, the first-run view has done its job and leaves the tabs.
      expect(await page.getByTestId('tab-start').count()).toBe(0)
      console.log(`[e2e] first run: empty home → engine installed → model pulled → ready in ${Date.now() - started} ms`)
      await page.getByTestId('server-stop').click()
      await state(page, 'stopped', 30_000)
    },
    400_000,
  )

  it('the one-click setup: installs llama.cpp, gets the recipe’s model and draft, stores its fitted profile and starts it', async () => {
    const { core, page, home } = await open()
    await page.getByTestId('first-run').waitFor({ timeout: 60_000 })
    await page.getByTestId('engine-install').click()
    await page.locator('[data-testid="first-run-engine"][data-done="true"]').waitFor({ timeout: 120_000 })
    const offer = page.getByTestId('recipe-offer')
    await expect(offer.getAttribute('data-recipe', { timeout: 60_000 })).resolves.toBe('qwen36-35b-a3b-8gb')
    await expect(offer.textContent()).resolves.toContain('unsloth/Qwen3.6-35B-A3B-GGUF:Q4_K_M + unsloth/Qwen3.5-0.8B-GGUF:Q4_K_M')
    await offer.getByTestId('recipe-apply').click()
    await expect(page.getByTestId('recipe-applied').textContent({ timeout: 120_000 })).resolves.toMatch(
      /^Set up Qwen3\.6-35B-A3B .*: profile .* with --n-cpu-moe \d+ fitted to this GPU/,
    )
    const [profile] = (await core.handlers['profiles:list']()).profiles
    expect(profile?.binary).toBe(join(home, 'engines', `${TAG}-cpu`, 'llama-server'))
    expect(profile?.model).toMatch(/models--unsloth--Qwen3\.6-35B-A3B-GGUF/)
    const stored = await core.handlers['profiles:get'](profile?.id ?? '')
    expect(stored?.draftModel).toMatch(/models--unsloth--Qwen3\.5-0\.8B-GGUF/)
    // The template's --no-mmap, which this mainline build rejects, was replaced as `profiles fix` does.
    expect(JSON.stringify({ ...stored, notes: '' })).not.toContain('--no-mmap')
    await page.getByTestId('first-run-create-start').click()
    await page.locator('[data-testid="tab-dashboard"][aria-selected="true"]').waitFor({ timeout: 60_000 })
    // The recipe's own profile is the one started (no second profile created from discovery).
    expect((await core.handlers['profiles:list']()).profiles).toHaveLength(1)
    await expect.poll(() => core.handlers['server:status']().then((st) => st.profileId), { timeout: 60_000 }).toBe(profile?.id)
    await page.getByTestId('server-stop').click()
    await state(page, 'stopped', 120_000)
  }, 400_000)

  it(
    'refuses a release without a build for this machine, an engine download and a model download that fail their sha256: one sentence ' +
      'each, nothing installed or listed',
    async () => {
      const windowsOnly: StandInRelease = {
        tag: TAG,
        publishedAt: good.publishedAt,
        assets: [{ name: `llama-${TAG}-bin-win-cpu-x64.zip`, body: Buffer.from('zip') }],
      }
      gh.releases = [windowsOnly]
      const { core, page, home } = await open()
      await page.getByTestId('first-run').waitFor({ timeout: 60_000 })
      const noBuild = `llama.cpp ${TAG} has no CPU build for Linux x64: it has nothing for Linux x64; its files: llama-${TAG}-bin-win-cpu-x64.zip.`
      await expect(page.getByTestId('engine-plan-error').locator('.error-cause').textContent({ timeout: 60_000 })).resolves.toBe(noBuild)
      // Said once on the page, before the user clicks anything and after the install fails for the same reason.
      const times = async (sentence: string): Promise<number> =>
        ((await page.locator('body').textContent()) ?? '').split(sentence).length - 1
      await expect(times(noBuild)).resolves.toBe(1)
      await page.getByTestId('engine-install').click()
      await expect(page.getByTestId('engine-error').locator('.error-cause').textContent({ timeout: 60_000 })).resolves.toBe(noBuild)
      await expect(times(noBuild)).resolves.toBe(1)

      // A digest that does not match what is served.
      gh.releases = [{ ...good, assets: [{ ...(good.assets[0] as StandInRelease['assets'][number]), digest: `sha256:${'0'.repeat(64)}` }] }]
      await page.getByTestId('engine-install').click()
      const error = page.getByTestId('engine-error')
      await expect.poll(async () => (await error.locator('.error-cause').textContent()) ?? '', { timeout: 120_000 }).toMatch(/sha256/)
      const cause = (await error.locator('.error-cause').textContent()) ?? ''
      console.log(`[e2e] first run, wrong digest: "${cause}"`)
      expect(cause.split(/(?<=[.!?])\s+(?=[A-Z])/).length).toBe(1)
      expect(await page.getByTestId('first-run-engine').getAttribute('data-done')).toBe('false')
      expect(await page.getByTestId('first-run-binary').count()).toBe(0)
      expect(await core.handlers['engines:list']()).toMatchObject({ ok: true, value: { installed: [] } })
      expect(enginesFolder(home)).toEqual([])
      expect(await page.getByTestId('first-run-create-start').isDisabled()).toBe(true)

      // A model whose bytes do not match the Hub's LFS sha256 (a damaged mirror).
      hub.corrupt(
        REPO,
        'tiny-target-IQ4_XS.gguf',
        Buffer.alloc(hub.repo(REPO).files.find((f) => f.path === 'tiny-target-IQ4_XS.gguf')?.size ?? 1, 7),
      )
      await page.getByTestId('model-ref').fill(`${REPO}:IQ4_XS`)
      await page.getByTestId('model-pull').click()
      const modelError = page.getByTestId('model-error').locator('.error-cause')
      await modelError.waitFor({ timeout: 120_000 })
      const modelCause = (await modelError.textContent()) ?? ''
      console.log(`[e2e] first run, damaged model: "${modelCause}"`)
      expect(modelCause).toBe(
        `tiny-target-IQ4_XS.gguf from ${REPO}:IQ4_XS does not match the sha256 the Hub lists for it, so it was deleted and nothing was ` +
          `kept: try again, and report it to the repo's owners if it repeats.`,
      )
      // The hashes stay behind "Details" until it is opened.
      const modelDetails = page.getByTestId('model-error').locator('.error-details')
      await expect(modelDetails.locator('pre').isVisible()).resolves.toBe(false)
      await modelDetails.locator('summary').click()
      await modelDetails.locator('pre').waitFor({ state: 'visible' })
      await expect(modelDetails.locator('pre').textContent()).resolves.toMatch(
        new RegExp(`^expected sha256 [0-9a-f]{64}\\ngot sha256 [0-9a-f]{64}\\n\\S+/tiny-target-IQ4_XS\\.gguf$`),
      )
      expect(await page.getByTestId('first-run-model').getAttribute('data-done')).toBe('false')
      expect(await page.getByTestId('first-run-found-model').count()).toBe(0)
      expect(await core.handlers['profiles:discover']()).toMatchObject({ ok: true, value: { models: [] } })
    },
    300_000,
  )
})
