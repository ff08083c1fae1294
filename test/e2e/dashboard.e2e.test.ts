import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { request, type ClientRequest } from 'node:http'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { failureSentence } from '../../app/contract/wording'
import { createLiveAdvisor } from '../../app/advisor/live-advisor'
import { formatReportCsv, formatReportMarkdown } from '../../app/bench/format'
import { formatCommandLine } from '../../app/lib/command-line'
import { TelemetryService } from '../../app/telemetry/telemetry-service'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { FAKE_SERVER, model, MODELS, REPO_ROOT } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { fakeGpuTelemetry } from '../support/bench/fake-gpu'
import { fakeVramTelemetry } from './fake-vram-telemetry'
import { serveFolder, type StaticServer } from './static-server'
import { LOW_VRAM_WARNING, vramAdvisor } from './vram-advisor'
import { runningProcess } from '../helpers/server-status'

// End to end: the built renderer in Debian's Chromium, window.llamaTray bridged
// to a real LlamaTrayCore, which runs the real llama-server on the tiny models.
// On this shared 2-core machine the tiny model may generate at only a few
// tok/s, hence the generous timeouts.

// Screenshots go to out/ on every run; UPDATE_SCREENSHOTS=1 refreshes the committed ones in docs/.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')
let bin: string
let browser: Browser
let site: StaticServer
const sessions: DashboardSession[] = []
const pids = new Set<number>()

beforeAll(async () => {
  bin = llamaServerBin()
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  mkdirSync(SCREENSHOTS, { recursive: true })
}, 300_000)

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close()
  for (const pid of pids) expect(isRunning(pid), `llama-server ${pid} left running`).toBe(false)
  pids.clear()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

async function open(options: Parameters<typeof openDashboard>[2], view?: Parameters<typeof openDashboard>[3]): Promise<DashboardSession> {
  const s = await openDashboard(browser, site.url, options, view)
  sessions.push(s)
  s.core.on('server:state-changed', (st) => st.pid && pids.add(st.pid))
  return s
}

// One thread per test server: a busy machine then slows it in proportion instead of stalling it.
const cmd = (...args: string[]): string => formatCommandLine([bin, ...args, '-t', '1'])

/** An outside client generating on the server (as a chat UI would); abort() hangs up. */
function generate(port: number, nPredict: number): { done: Promise<unknown>; abort: () => void } {
  let req: ClientRequest | null = null
  const done = new Promise((resolve, reject) => {
    req = request(
      { host: '127.0.0.1', port, path: '/completion', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (c: string) => (text += c))
        res.on('end', () => resolve(JSON.parse(text)))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ prompt: 'Once upon a time', n_predict: nPredict, ignore_eos: true }))
  })
  done.catch(() => undefined)
  return { done, abort: () => req?.destroy() }
}

async function state(page: Page, expected: string, timeout = 120_000): Promise<void> {
  await page
    .getByTestId('server-state')
    .and(page.locator(`[data-state="${expected}"]`))
    .waitFor({ timeout })
}

async function rate(page: Page): Promise<number> {
  return Number(await page.getByTestId('live-rate').locator('.value').textContent())
}

describe('dashboard in Chromium over the real core and llama-server', () => {
  it(
    'starts an imported profile from the UI, shows ready, live tok/s and the log; switches to the draft profile in one click and shows ' +
      'the acceptance',
    async () => {
      const { core, page } = await open({ telemetry: new TelemetryService({ gpuBackend: 'auto' }) })
      const draft = await core.handlers['profiles:import'](
        cmd('-m', model('tiny-target.gguf'), '-md', model('tiny-draft.gguf'), '--spec-type', 'draft-simple', '-c', '4096', '-np', '1'),
        'tiny + draft',
      )
      if (!draft.ok) throw new Error(draft.error.sentence)

      // Import from a pasted command, through the UI.
      await page.getByTestId('tab-profiles').click()
      await page.getByTestId('import-command').fill(cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1'))
      await page.getByTestId('import-name').fill('tiny')
      await page.getByTestId('import-submit').click()
      const tinyRow = page.getByTestId('profile-row').filter({ hasText: 'tiny' }).filter({ hasNotText: 'draft' })
      await tinyRow.waitFor()

      // One click starts it; the header follows the pushed state to ready.
      await tinyRow.getByTestId('profile-start').click()
      await state(page, 'ready')
      await expect(page.getByTestId('active-profile').textContent()).resolves.toBe('tiny')

      const port = runningProcess(core.server.getStatus()).port
      // Where clients connect: the OpenAI-compatible base URL of the running server, and it answers.
      const url = await page.getByTestId('server-url').textContent()
      expect(url).toBe(`http://127.0.0.1:${port}/v1`)
      expect((await fetch(`${url}/models`)).status).toBe(200)
      const long = generate(port, 2000)
      await expect.poll(() => rate(page), { timeout: 60_000, interval: 250 }).toBeGreaterThan(0)
      const live = await rate(page)
      console.log(`[e2e] live generation rate shown: ${live} tok/s`)
      expect(live).toBeGreaterThan(0)

      // The log view shows the server's own lines.
      await page.getByTestId('tab-logs').click()
      const logText = async (): Promise<string> => (await page.getByTestId('log-lines').textContent()) ?? ''
      await expect.poll(logText, { timeout: 90_000 }).toMatch(/listening on/)
      expect(await logText()).toMatch(/llama_model_loader|load_tensors|print_info/)
      await page.getByTestId('log-filter').fill('listening')
      expect(await page.getByTestId('log-lines').locator('.log-line').count()).toBeGreaterThan(0)
      long.abort()

      // Switch in one click: the draft profile takes over the server.
      await page.getByTestId('tab-profiles').click()
      const draftRow = page.locator(`[data-testid="profile-row"][data-profile-id="${draft.value.id}"]`)
      await expect(draftRow.getByTestId('profile-start').textContent()).resolves.toBe('Switch')
      await draftRow.getByTestId('profile-start').click()
      await page.getByTestId('active-profile').and(page.locator(':text("tiny + draft")')).waitFor({ timeout: 120_000 })
      await state(page, 'ready')
      const draftPort = runningProcess(core.server.getStatus()).port
      await generate(draftPort, 48).done
      // The last request's figures are on the Running view.
      await page.getByTestId('tab-dashboard').click()
      await expect.poll(() => page.getByTestId('draft-acceptance').textContent(), { timeout: 60_000, interval: 250 }).toMatch(/%$/)
      const acceptance = (await page.getByTestId('draft-acceptance').textContent()) ?? ''
      const last = core.snapshot().generation?.last
      console.log(`[e2e] draft acceptance shown: ${acceptance} (server: ${last?.draftAccepted}/${last?.draftTokens})`)
      expect(acceptance).toBe(`${Math.round((last?.draftAcceptance ?? NaN) * 100)}%`)

      // The "running" screenshot: live tok/s with the draft, the last request's figures, the charts.
      await page.getByTestId('tab-dashboard').click()
      const again = generate(draftPort, 2000)
      await page.waitForTimeout(5000) // a few seconds of chart
      await page.locator('[data-testid="live-rate"][data-active="true"]').waitFor({ timeout: 60_000 })
      await expect.poll(() => rate(page), { timeout: 60_000, interval: 100 }).toBeGreaterThan(0)
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-running.png') })
      again.abort()
    },
    400_000,
  )

  it('a server with --sleep-idle-seconds shows Sleeping calmly, and a request wakes it back to Running', async () => {
    const { core, page } = await open({ telemetry: null })
    const sleepy = await core.handlers['profiles:import'](
      cmd('-m', model('tiny-target.gguf'), '-c', '512', '-np', '1', '--sleep-idle-seconds', '1'),
      'sleepy',
    )
    if (!sleepy.ok) throw new Error(sleepy.error.sentence)
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'sleepy' }).getByTestId('profile-start').click()
    await page.getByTestId('tab-dashboard').click()
    await state(page, 'sleeping', 60_000)
    // The badge's shape (☾, hidden from screen readers) comes before the word.
    await expect(page.getByTestId('server-state').textContent()).resolves.toMatch(/^\W*Sleeping$/)
    await expect(page.getByTestId('sleeping-note').textContent()).resolves.toBe(
      'Sleeping: model unloaded after 1 s idle, VRAM freed; the next request wakes it',
    )
    // The rate follows the next snapshot (the core's cadence), the badge the pushed state.
    await expect.poll(() => page.getByTestId('live-rate').locator('.value').textContent(), { timeout: 30_000 }).toBe('asleep')
    expect(await page.getByTestId('failure').count()).toBe(0)
    // Clients still see where to connect, and a request wakes it.
    expect(await page.getByTestId('server-url').count()).toBe(1)
    const after: string[] = []
    core.on('server:state-changed', (st) => after.push(st.state))
    await generate(runningProcess(core.server.getStatus()).port, 4).done
    // Awake to answer, then asleep again. While it wakes, the sleeping state carries the reload's progress from the
    // server's channel: updates within the state (pushed again), not edges.
    const edges = (): string[] => after.filter((s, i) => s !== after[i - 1]).filter((s, i) => !(i === 0 && s === 'sleeping'))
    await expect.poll(edges, { timeout: 60_000 }).toEqual(['ready', 'sleeping'])
    await state(page, 'sleeping', 60_000)
    expect(core.server.getLogs(5000).filter((l) => /exiting sleeping state/.test(l)).length).toBeGreaterThan(0)
  }, 240_000)

  it('a window opened while a server runs charts its past generation rates at once (generation:history), not only what came after', async () => {
    const { core, page } = await open({ telemetry: null })
    const imported = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1'), 'tiny')
    if (!imported.ok) throw new Error(imported.error.sentence)
    expect((await core.handlers['server:start'](imported.value.id)).ok).toBe(true)
    await generate(runningProcess(core.server.getStatus()).port, 32).done
    // A past that is clearly older than anything the reopened page could get pushed or fetch as the latest snapshot.
    const ageOfFirstPoint = async (): Promise<number> =>
      Date.now() / 1000 - ((await core.handlers['generation:history']()).perSecond[0]?.time ?? Date.now()) / 1000
    await expect.poll(ageOfFirstPoint, { timeout: 60_000, interval: 250 }).toBeGreaterThan(4)
    const firstPast = Math.floor(((await core.handlers['generation:history']()).perSecond[0]?.time as number) / 1000)
    // The window is opened again: a fresh page, whose stores know only what it fetches and what is pushed from now on.
    await page.reload()
    const chart = page.getByTestId('chart-tokens').locator('.chart-canvas')
    await expect
      .poll(async () => Number((await chart.getAttribute('data-since')) || NaN), { timeout: 60_000, interval: 250 })
      .toBe(firstPast)
  }, 240_000)

  it('a profile whose model is missing shows the reason and the hint', async () => {
    const { core, page } = await open({ telemetry: null })
    const broken = await core.handlers['profiles:import'](
      cmd('-m', join(MODELS, 'moved-away.gguf'), '-c', '4096', '-np', '1'),
      'moved model',
      { force: true },
    )
    if (!broken.ok) throw new Error(broken.error.sentence)
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'moved model' }).getByTestId('profile-start').click()
    await state(page, 'errored', 30_000)
    const failure = (await page.getByTestId('failure').textContent()) ?? ''
    expect(failure).toMatch(/moved-away\.gguf|model/i)
    const exit = core.server.getStatus().lastExit
    // One sentence from the wording module: "The model file moved-away.gguf does not exist. …"
    expect(failure).toContain(failureSentence(exit?.reason ?? '<no reason>', exit?.hint))
    expect(failure).not.toMatch(/[.!?] [a-z]/)
    // Said once: the header has it, the profile list does not repeat it.
    await expect(page.getByTestId('start-error').count()).resolves.toBe(0)
    // (The README's "Failed" screenshot: the moved-model journey in moments-journeys.e2e.test.ts, with its fix.)
  }, 240_000)

  it('a low-VRAM sequence raises the warning banner and its one-click fix changes the profile', async () => {
    // Scripted GPU (fake telemetry): 8 s healthy, then free VRAM sinks under the 1.5 GB headroom.
    const freeMiB = [3100, 3080, 3120, 3050, 3090, 3060, 3100, 3070, 2900, 2400, 1900, 1200, 900, 760, 740]
    let advisorCore: DashboardSession['core'] | null = null
    const advisor = vramAdvisor(() => advisorCore as DashboardSession['core'], 4)
    const session = await open({ telemetry: fakeVramTelemetry(freeMiB), ...advisor })
    const { core, page } = session
    advisorCore = core
    const imported = await core.handlers['profiles:import'](
      cmd('-m', model('tiny-target.gguf'), '--n-cpu-moe', '4', '-c', '4096', '-np', '1'),
      'qwen-moe (tiny)',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const started = await core.handlers['server:start'](imported.value.id)
    expect(started.ok).toBe(true)
    await state(page, 'ready')

    const banner = page.getByTestId('warning').and(page.locator(`[data-warning-id="${LOW_VRAM_WARNING}"]`))
    await banner.waitFor({ timeout: 90_000 })
    await expect(banner.textContent()).resolves.toMatch(/MiB of VRAM free/)
    // The sequence reaches its floor, and a snapshot with it reaches the page and the advisor.
    await new Promise<void>((resolve) => {
      const off = core.on('snapshot', (snap) => {
        if (snap.gpu?.devices[0]?.memoryFreeMiB !== freeMiB.at(-1)) return
        off()
        resolve()
      })
    })

    await banner.getByTestId('warning-fix').click()
    await page.getByTestId('warning-fix-result').waitFor()
    await expect(page.getByTestId('warning-fix-result').textContent()).resolves.toMatch(/Saved in “qwen-moe \(tiny\)”/)
    expect((await core.handlers['profiles:get'](imported.value.id))?.settings.nCpuMoe).toBe(8)
    // The next warning proposes the next step from the changed profile.
    await page.locator('[data-testid="warning-fix"]:text("--n-cpu-moe 12")').waitFor({ timeout: 90_000 })
  }, 400_000)

  it('mutes a lint warning of the running profile from the banner, lists it under the profile, and Unmute brings it back', async () => {
    // The real live advisor, keeping its mutes in the session's home.
    const { core, page } = await open((home) => {
      const advisor = createLiveAdvisor({ home })
      return { telemetry: null, warnings: advisor.warnings, applyWarningFix: advisor.applyWarningFix, mutes: advisor.mutes }
    })
    // -c without -np: the advisor's auto-slots finding (mainline gives 4 slots).
    const imported = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '4096'), 'auto slots')
    if (!imported.ok) throw new Error(imported.error.sentence)
    expect((await core.handlers['server:start'](imported.value.id)).ok).toBe(true)
    await state(page, 'ready')
    const warning = page.locator('[data-testid="warning"][data-warning-id^="lint.auto-slots"]')
    await warning.waitFor({ timeout: 60_000 })
    const id = await warning.getAttribute('data-warning-id')
    expect(id).toBe(`lint.auto-slots@${imported.value.id}`)

    await warning.getByTestId('warning-mute').click()
    await page.getByTestId('warning-fix-result').waitFor()
    await expect(page.getByTestId('warning-fix-result').textContent()).resolves.toMatch(/Muted for this profile/)
    await warning.waitFor({ state: 'detached', timeout: 90_000 })
    expect(await core.handlers['warnings:muted'](imported.value.id)).toEqual(['lint.auto-slots'])

    await page.getByTestId('tab-profiles').click()
    const muted = page.getByTestId('muted-warning').and(page.locator('[data-key="lint.auto-slots"]'))
    await muted.waitFor({ timeout: 90_000 })
    await muted.getByTestId('unmute').click()
    await muted.waitFor({ state: 'detached', timeout: 90_000 })
    expect(await core.handlers['warnings:muted'](imported.value.id)).toEqual([])
    await warning.waitFor({ timeout: 90_000 })
  }, 300_000)

  it('fits a 360 px tray popover in dark mode and is driven by the keyboard', async () => {
    const { core, page } = await open({ telemetry: null }, { width: 360, height: 640, colorScheme: 'dark' })
    await core.handlers['profiles:import'](
      cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1'),
      'a profile with a rather long name for a small window',
    )
    const overflow = (): Promise<boolean> =>
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number }).document.documentElement
            .scrollWidth > (globalThis as unknown as { innerWidth: number }).innerWidth,
      )
    await page.getByTestId('chart-tokens').waitFor()
    expect(await overflow()).toBe(false)
    // Keyboard: focus the selected tab, arrows move between views.
    await page.getByTestId('tab-dashboard').focus()
    await page.keyboard.press('ArrowRight')
    await expect(page.getByTestId('tab-profiles').getAttribute('aria-selected')).resolves.toBe('true')
    await page.getByTestId('profile-row').waitFor()
    expect(await overflow()).toBe(false)
    await page.keyboard.press('ArrowRight')
    await page.getByTestId('history-view').waitFor()
    expect(await overflow()).toBe(false)
    await page.keyboard.press('ArrowRight')
    await page.getByTestId('log-lines').waitFor()
    expect(await overflow()).toBe(false)
    await page.keyboard.press('ArrowRight')
    await page.getByTestId('settings-save').waitFor()
    // Settings are saved through the contract and come back as main pushes them.
    await page.getByTestId('setting-vramHeadroomMiB').fill('2048')
    await page.getByTestId('settings-save').press('Enter')
    await expect.poll(() => core.settings.vramHeadroomMiB).toBe(2048)
    await page.getByTestId('setting-vramHeadroomMiB').fill('lots')
    await page.getByTestId('settings-save').click()
    await expect(page.getByTestId('settings-message').textContent()).resolves.toMatch(/not a number/)
    expect(await overflow()).toBe(false)
    await page.keyboard.press('Shift+Tab')
    await page.getByTestId('tab-dashboard').click()
    await page.getByTestId('glance').waitFor()
    expect(await overflow()).toBe(false)
    await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0))
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-small-dark.png') })
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('fit-panel').waitFor({ timeout: 90_000 })
    expect(await overflow()).toBe(false)
    await page.getByTestId('tab-bench').click()
    await page.getByTestId('bench-start').waitFor()
    expect(await overflow()).toBe(false)
  }, 240_000)

  it('a long load shows a ticking elapsed time and the phase, and Stop ends it', async () => {
    // The fake server (test/fixtures) answers 503 "loading" forever: a model that takes minutes to load.
    const { core, page } = await open({ telemetry: null })
    const starting = core.startSpec({ profileId: 'slow-load', exe: FAKE_SERVER, args: ['--fake-mode', 'never-ready'] }).catch(() => null)
    await state(page, 'loading', 30_000)
    const progress = page.getByTestId('loading-progress')
    const first = (await progress.textContent()) ?? ''
    expect(first).toMatch(/(loading|starting).* · 0:0\d/)
    await expect.poll(async () => (await progress.textContent()) ?? '', { timeout: 30_000, interval: 200 }).not.toBe(first)
    await page.getByTestId('server-stop').click()
    await state(page, 'stopped', 30_000)
    await starting
    expect(await progress.count()).toBe(0)
  }, 240_000)
})

describe('fit panel and Bench view in Chromium over the real core and llama-server', () => {
  it(
    'the fit panel shows the breakdown against the budget and applies the suggested --n-cpu-moe in one click; a missing model shows as ' +
      'text',
    async () => {
      // A scripted GPU with 2247 MiB free: 1536 MiB headroom and 650 MiB of CUDA runtime leave 61 MiB, a little under the tiny target's
      // ~61.1
      // MiB on the GPU.
      const { core, page } = await open({ telemetry: fakeVramTelemetry([2247]) })
      const tiny = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1'), 'tiny')
      if (!tiny.ok) throw new Error(tiny.error.sentence)
      await page.getByTestId('tab-profiles').click()
      const panel = page.getByTestId('fit-panel')
      await panel.getByTestId('fit-breakdown').waitFor({ timeout: 60_000 })
      // The panel fetched before the fake GPU reported: refresh until the budget is there.
      await expect
        .poll(
          async () => {
            await panel.getByTestId('fit-refresh').click()
            return panel.getByTestId('fit-suggestion').count()
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe(1)
      const estimate = await core.handlers['fit:estimate'](tiny.value.id)
      if (!estimate.ok) throw new Error(estimate.error.sentence)
      const { report } = estimate.value
      console.log(
        `[e2e] fit: GPU ${report.total.gpu.totalMiB} MiB (weights ${report.gpu.weightsMiB}, KV ${report.gpu.kvMiB}, recurrent ` +
          `${report.gpu.recurrentMiB}, ` +
          `compute ${report.gpu.computeMiB}), budget ${report.budgetMiB} MiB, suggested --n-cpu-moe ${report.nCpuMoe}`,
      )
      const gpuTotal = await panel.getByTestId('fit-row-totalMiB').locator('td').first().textContent()
      expect(Number(gpuTotal)).toBeCloseTo(report.gpu.totalMiB, 0)
      expect(report.gpuRuntimeMiB).toBe(650)
      await expect(panel.getByTestId('fit-row-runtime').locator('td').first().textContent()).resolves.toBe('650')
      await expect(panel.getByTestId('fit-budget').textContent()).resolves.toContain(`budget of ${report.budgetMiB?.toFixed(0)} MiB`)
      const suggested = Number(await panel.getByTestId('fit-suggestion').getAttribute('data-n-cpu-moe'))
      expect(suggested).toBe(report.nCpuMoe)
      expect(suggested).toBeGreaterThan(0)
      expect((await core.handlers['profiles:get'](tiny.value.id))?.settings.nCpuMoe).toBeUndefined()

      await panel.getByTestId('fit-apply').click()
      await expect
        .poll(async () => (await core.handlers['profiles:get'](tiny.value.id))?.settings.nCpuMoe, { timeout: 90_000 })
        .toBe(suggested)
      await panel.locator('[data-testid="fit-suggestion"]:has-text("the profile has it")').waitFor({ timeout: 90_000 })
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-fit.png') })
      // The test build has no llama-fit-params beside llama-server: asking llama.cpp's own fit says so, in one sentence.
      await panel.getByTestId('llama-fit-ask').click()
      await expect(panel.getByTestId('llama-fit-error').textContent({ timeout: 30_000 })).resolves.toMatch(
        /^llama\.cpp's own fit cannot be asked: there is no llama-fit-params beside .*llama-server \(llama\.cpp's release archives ship it/,
      )
      // The editor in sections, every "More" open: the whole form as a user finds it.
      const closed = page.locator('details.more:not([open]) > summary')
      while ((await closed.count()) > 0) await closed.first().click()
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-editor.png'), fullPage: true })
      // The raw command is editable: change the context in the text, apply, and the stored profile has it.
      const raw = page.getByTestId('exported')
      await expect.poll(() => raw.inputValue(), { timeout: 30_000 }).toMatch(/-c 4096/)
      await raw.fill((await raw.inputValue()).replace('-c 4096', '-c 8192'))
      await page.getByTestId('apply-command').click()
      await expect.poll(async () => (await core.handlers['profiles:get'](tiny.value.id))?.settings.ctxSize, { timeout: 30_000 }).toBe(8192)
      expect((await core.handlers['profiles:get'](tiny.value.id))?.settings.nCpuMoe).toBe(suggested)

      const moved = await core.handlers['profiles:import'](
        cmd('-m', join(MODELS, 'moved-away.gguf'), '-c', '4096', '-np', '1'),
        'moved model',
        { force: true },
      )
      if (!moved.ok) throw new Error(moved.error.sentence)
      await page.getByTestId('profile-row').filter({ hasText: 'moved model' }).locator('.profile-select').click()
      await expect(page.getByTestId('fit-error').textContent({ timeout: 90_000 })).resolves.toMatch(/moved-away\.gguf|model/i)
    },
    240_000,
  )

  it("benches one profile from the Bench view: the table and the bars show the report's figures", async () => {
    const { core, page } = await open({ telemetry: null })
    const tiny = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1'), 'tiny')
    if (!tiny.ok) throw new Error(tiny.error.sentence)
    const progress: string[] = []
    core.on('bench:progress', (p) => progress.push(p.phase))

    await page.getByTestId('tab-bench').click()
    await page.locator(`[data-testid="bench-profile"][data-profile-id="${tiny.value.id}"]`).check()
    await page.getByTestId('bench-runs').fill('1')
    await page.getByTestId('bench-tokens').fill('32')
    const started = Date.now()
    await page.getByTestId('bench-start').click()
    await page.getByTestId('bench-progress').waitFor({ timeout: 90_000 })
    await page.getByTestId('bench-results').waitFor({ timeout: 240_000 })
    console.log(
      `[e2e] bench of one profile (1 run, 32 tokens) took ${Date.now() - started} ms; phases ${[...new Set(progress)].join(' → ')}`,
    )
    const [stored] = await core.handlers['bench:history'](1)
    if (!stored) throw new Error('no stored report')
    const rows = page.getByTestId('bench-row')
    expect(await rows.count()).toBe(stored.results[0]?.prompts.length)
    for (const p of stored.results[0]?.prompts ?? []) {
      const cell = page.locator(`[data-testid="bench-row"][data-prompt="${p.prompt}"]`).getByTestId('bench-decode')
      expect(Number(await cell.getAttribute('data-value'))).toBe(p.median.tokensPerSecond)
      expect(await cell.textContent()).toContain((p.median.tokensPerSecond as number).toFixed(1))
      console.log(`[e2e] bench ${p.prompt}: ${p.median.tokensPerSecond} tok/s decode, ${p.median.promptTokensPerSecond} tok/s prompt`)
    }
    expect(core.server.getStatus().state).toBe('stopped')
    await page.getByTestId('bench-history').locator('li').first().waitFor()

    expect(await page.getByTestId('bench-bars').locator('.bench-bar').count()).toBe(await rows.count())
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-bench.png'), fullPage: true })

    // Export: the same Markdown table and CSV rows as the CLI's --markdown / --csv for the stored report.
    await page.getByTestId('bench-export-markdown').click()
    await expect.poll(() => page.getByTestId('bench-exported').inputValue()).toBe(`${formatReportMarkdown(stored)}\n`)
    await page.getByTestId('bench-export-csv').click()
    await expect.poll(() => page.getByTestId('bench-exported').inputValue()).toBe(formatReportCsv(stored))
  }, 300_000)

  it('tunes --n-cpu-moe from the Bench view on a scripted GPU: the sweep, the skipped settings and the saved recommendation', async () => {
    // Expert layers kept on the GPU cost 150 MiB each (as in tune.test.ts): the lowest settings leave too little free.
    const { core, page } = await open({
      telemetry: fakeGpuTelemetry({ totalMiB: 8192, idleMiB: 300, serverMiB: 600, perGpuExpertLayerMiB: 150, layers: 40, draftMiB: 200 }),
    })
    const tiny = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1'), 'tiny')
    if (!tiny.ok) throw new Error(tiny.error.sentence)
    await page.getByTestId('tab-bench').click()
    await page.locator(`[data-testid="bench-profile"][data-profile-id="${tiny.value.id}"]`).check()
    await page.getByTestId('bench-runs').fill('1')
    await page.getByTestId('bench-tokens').fill('32')
    await page.getByTestId('bench-tune-save').fill('tiny (tuned)')
    await page.getByTestId('bench-tune').click()
    await page.getByTestId('tune-results').waitFor({ timeout: 240_000 })
    const [stored] = await core.handlers['bench:history'](1)
    const tune = stored?.tune
    if (!tune?.recommended) throw new Error('no tune recommendation stored')
    expect(await page.getByTestId('tune-row').count()).toBe(tune.candidates.length)
    expect(await page.locator('[data-testid="tune-row"][data-status="skipped-vram"]').count()).toBe(
      tune.candidates.filter((c) => c.status === 'skipped-vram').length,
    )
    expect(Number(await page.getByTestId('tune-recommended').getAttribute('data-n-cpu-moe'))).toBe(tune.recommended.nCpuMoe)
    await expect(page.getByTestId('tune-saved').textContent()).resolves.toContain(tune.savedProfileId as string)
    expect((await core.handlers['profiles:list']()).profiles.some((p) => p.id === tune.savedProfileId && p.name === 'tiny (tuned)')).toBe(
      true,
    )
    console.log(`[e2e] tune: ${tune.candidates.map((c) => `${c.nCpuMoe}:${c.status}`).join(' ')} → --n-cpu-moe ${tune.recommended.nCpuMoe}`)
  }, 300_000)

  it('Cancel during a bench stops it and leaves no server running', async () => {
    const { core, page } = await open({ telemetry: null })
    const tiny = await core.handlers['profiles:import'](cmd('-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1'), 'tiny')
    if (!tiny.ok) throw new Error(tiny.error.sentence)
    await page.getByTestId('tab-bench').click()
    await page.locator(`[data-testid="bench-profile"][data-profile-id="${tiny.value.id}"]`).check()
    await page.getByTestId('bench-runs').fill('3')
    await page.getByTestId('bench-tokens').fill('3000')
    const started = Date.now()
    await page.getByTestId('bench-start').click()
    // Cancel once the server is up and the bench talks to it (warm-up or a measured run).
    await page.locator('[data-testid="bench-progress"]:is([data-phase="warmup"], [data-phase="run"])').waitFor({ timeout: 120_000 })
    const running = Date.now()
    expect(core.server.getStatus().state).toBe('ready')
    await page.getByTestId('bench-cancel').click()
    await expect(page.getByTestId('bench-error').textContent({ timeout: 90_000 })).resolves.toMatch(/cancelled/i)
    console.log(
      `[e2e] bench cancel: ${running - started} ms until the server answered the bench, ${Date.now() - running} ms from Cancel to the ` +
        `answer`,
    )
    expect(core.server.getStatus().state).toBe('stopped')
    expect(await page.getByTestId('bench-cancel').count()).toBe(0)
  }, 180_000)
})

describe('find on disk in Chromium over the real core and llama-server', () => {
  it('a new user finds llama-server and a model on disk, creates a profile and starts it to ready', async () => {
    // Discovery reads this process's PATH and home (the core is given no discovery options):
    // a PATH folder holding a llama-server symlink, an empty home, and a model folder added in Settings.
    const root = mkdtempSync(join(tmpdir(), 'llama-tray-e2e-discover-'))
    const saved = { PATH: process.env.PATH, HOME: process.env.HOME, HF_HOME: process.env.HF_HOME }
    try {
      const pathDir = join(root, 'bin')
      const modelsDir = join(root, 'my models')
      mkdirSync(pathDir)
      mkdirSync(modelsDir)
      mkdirSync(join(root, 'home'))
      symlinkSync(bin, join(pathDir, 'llama-server'))
      const target = join(modelsDir, 'Tiny-Target-Q8_0.gguf')
      copyFileSync(model('tiny-target.gguf'), target)
      process.env.PATH = `${pathDir}:${saved.PATH ?? ''}`
      process.env.HOME = join(root, 'home')
      process.env.HF_HOME = join(root, 'hf')

      const { core, page } = await open({ telemetry: null, supervisor: { healthIntervalMs: 50 } })
      const started = Date.now()
      // Nothing found yet: the list says where it looked and points to Settings.
      await page.getByTestId('tab-profiles').click()
      await page.getByTestId('discover-find').click()
      await expect(page.getByTestId('discover-searched').textContent({ timeout: 60_000 })).resolves.toMatch(/Settings → Model folders/)
      expect(await page.getByTestId('discover-create').isDisabled()).toBe(true)

      await page.getByTestId('tab-settings').click()
      await page.getByTestId('setting-modelDirs').fill(modelsDir)
      await page.getByTestId('settings-save').click()
      await expect(page.getByTestId('settings-message').textContent()).resolves.toBe('Saved.')
      expect((await core.handlers['settings:get']()).modelDirs).toEqual([modelsDir])

      await page.getByTestId('tab-profiles').click()
      await page.getByTestId('discover-find').click()
      await page.getByTestId('discover-results').waitFor({ timeout: 60_000 })
      const binaryOption = page.locator(`[data-testid="binary-option"][data-path="${join(pathDir, 'llama-server')}"]`)
      const modelOption = page.locator(`[data-testid="model-option"][data-path="${target}"]`)
      await binaryOption.locator('input').check()
      await modelOption.locator('input').check()
      expect(await modelOption.textContent()).toMatch(/qwen35moe · Q8_0 · .*8 experts · trained ctx 16384/)
      expect(await page.getByTestId('draft-none').count()).toBe(0) // one model: no draft to offer
      await page.getByTestId('discover-name').fill('found tiny')
      await page.getByTestId('discover-create').click()
      await page.getByTestId('discover-created').waitFor()
      const row = page.getByTestId('profile-row').filter({ hasText: 'found tiny' })
      await expect(row.getAttribute('class')).resolves.toMatch(/selected/)
      const profile = (await core.handlers['profiles:list']()).profiles.find((p) => p.name === 'found tiny')
      expect(profile).toMatchObject({ binary: join(pathDir, 'llama-server'), model: target, draftModel: null })

      await page.getByTestId('discover-start').click()
      await state(page, 'ready', 60_000)
      await expect(page.getByTestId('active-profile').textContent()).resolves.toBe('found tiny')
      console.log(`[e2e] find on disk → ready through the UI in ${Date.now() - started} ms`)
      await row.getByTestId('profile-stop').click()
      await state(page, 'stopped', 30_000)
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
      rmSync(root, { recursive: true, force: true })
    }
  }, 300_000)
})
