import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { PROGRESS_MODEL_ARGS, writeProgressModel } from '../helpers/synthetic/progress-model'
import { launchChromium } from './browser'
import { openDashboard, waitForState, type DashboardSession } from './dashboard-session'
import { sharedRendererBuild } from './shared-renderer-build'
import { serveFolder, type StaticServer } from './static-server'

// The dashboard's loading bar in Chromium, fed by a real core and the real llama-server loading a
// synthetic 0.5 GB model (-lm none): the bar follows the progress the server reports on its child channel.
let bin: string
let progressModel: string
let browser: Browser
let site: StaticServer
const sessions: DashboardSession[] = []

beforeAll(async () => {
  bin = llamaServerBin()
  progressModel = await writeProgressModel()
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  rmSync(dirname(progressModel), { recursive: true, force: true })
})

describe("the dashboard's loading bar", () => {
  it("shows the server's own progress, several values in turn, with the stage in words", async () => {
    const session = await openDashboard(browser, site.url, { telemetry: null })
    sessions.push(session)
    const { core, page } = session
    // Every value the bar takes and every text beside it, recorded in the page as it changes (no sampling to miss one).
    // (a script string: this project's TypeScript has no DOM types)
    await page.evaluate(`
      const seen = { values: [], texts: [] }
      globalThis.seenProgress = seen
      new MutationObserver(() => {
        const box = document.querySelector('[data-testid="loading-progress"][data-source="server"]')
        const bar = box && box.querySelector('progress')
        if (bar && seen.values[seen.values.length - 1] !== bar.value) seen.values.push(bar.value)
        const text = box ? box.textContent : null
        if (text && seen.texts[seen.texts.length - 1] !== text) seen.texts.push(text)
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
    `)
    await core.startSpec({ profileId: 'progress', exe: bin, args: ['-m', progressModel, ...PROGRESS_MODEL_ARGS] })
    await waitForState(page, 'ready')
    const seen = (await page.evaluate('globalThis.seenProgress')) as { values: number[]; texts: string[] }
    expect(new Set(seen.values).size, `values: ${seen.values.join(', ')}`).toBeGreaterThanOrEqual(3)
    expect(seen.values).toEqual([...seen.values].sort((a, b) => a - b))
    expect(
      seen.texts.some((t) => /^Loading text model \d+ % · \d+:\d\d$/.test(t)),
      seen.texts.join(' | '),
    ).toBe(true)
    expect(await page.getByTestId('loading-progress').count()).toBe(0)
  }, 240_000)
})
