import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { HistorySession } from '../../app/contract/history'
import { HistoryStore } from '../../app/history/history-store'
import { historyRequest } from '../support/history/rows'
import { REPO_ROOT } from '../helpers/paths'
import { seriousAxeIssues } from './axe'
import { launchChromium } from './browser'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { sharedRendererBuild } from './shared-renderer-build'
import { serveFolder, type StaticServer } from './static-server'

// As in dashboard.e2e.test.ts: out/ on every run, docs/ with UPDATE_SCREENSHOTS=1.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')
const DAY_MS = 86_400_000

let browser: Browser
let site: StaticServer
const sessions: DashboardSession[] = []
let saveTo: string | null = null

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

const session = (key: string, startedAt: number, engineVersion: string): HistorySession => ({
  key,
  kind: 'server',
  profileId: 'qwen',
  profileName: 'Qwen3 30B A3B',
  engine: 'llama.cpp cuda',
  engineVersion,
  model: 'qwen3-30b-a3b-q4_k_m.gguf',
  driverVersion: null,
  launchDigest: 'a',
  startedAt,
  readyAt: startedAt + 20_000,
  stoppedAt: startedAt + 3_600_000,
  ended: 'stopped',
  loadMs: 20_000,
  placementRetry: false,
  generationPerSecond: null,
  promptPerSecond: null,
})

/** Three weeks of one profile's requests, slower after an engine update a week ago, and today's. */
function seeded(home: string): HistoryStore {
  const store = HistoryStore.at(home)
  const now = Date.now()
  for (let d = 21; d >= 0; d--) {
    const speed = d > 7 ? 31 + (d % 3) : 24 + (d % 2)
    for (let i = 0; i < 6; i++)
      store.recordRequest(historyRequest({ time: now - d * DAY_MS - i * 1000, generatedTokens: 300 + 20 * i, generationPerSecond: speed }))
  }
  store.recordSession(session('old', now - 22 * DAY_MS, 'b6000'))
  store.recordSession(session('new', now - 7 * DAY_MS - 3_600_000, 'b6100'))
  store.recordSession({ ...session('bench', now - 3 * DAY_MS, 'b6100'), kind: 'bench', generationPerSecond: 24.4, launchDigest: null })
  return store
}

async function open(scheme: 'light' | 'dark', seed: boolean, page = ''): Promise<DashboardSession> {
  const s = await openDashboard(
    browser,
    `${site.url}${page}`,
    (home) => ({
      telemetry: null,
      history: seed ? seeded(home) : HistoryStore.at(home),
      chooseSavePath: async (name) => (saveTo === null ? null : join(saveTo, name)),
    }),
    { width: 1100, height: 900, colorScheme: scheme },
  )
  sessions.push(s)
  if (page !== '') return s
  await s.page.getByTestId('tab-history').click()
  await s.page.getByTestId('history-view').waitFor()
  return s
}

describe('the History view (Chromium, real core, a seeded history.sqlite)', () => {
  it.each(['light', 'dark'] as const)('charts tokens and speed per day with the engine update marked (%s), axe clean', async (scheme) => {
    const { page } = await open(scheme, true)
    await expect(page.getByTestId('history-today').textContent()).resolves.toMatch(
      /^Today: 2,100 tokens generated, 600 prompt tokens in 6 requests\.$/,
    )
    await page.getByTestId('history-tokens-chart').locator('canvas').waitFor()
    await expect(page.getByTestId('history-changes-qwen').textContent()).resolves.toContain(
      'engine llama.cpp cuda b6000 → llama.cpp cuda b6100',
    )
    const extremes = await page.getByTestId('history-extremes-qwen').textContent()
    await expect(page.getByTestId('history-benches-qwen').textContent()).resolves.toBe('1 bench run (dots), the last 24.4 tok/s.')
    expect(extremes).toMatch(/^Slowest day \d{4}-\d\d-\d\d: 24\.0 tok\/s · fastest \d{4}-\d\d-\d\d: 33\.0 tok\/s$/)
    expect(await seriousAxeIssues(page)).toEqual([])
    if (scheme === 'light') await page.getByTestId('history-view').screenshot({ path: join(SCREENSHOTS, 'dashboard-history.png') })
  })

  it('says what will appear when there is no history yet, with the export off', async () => {
    const { page } = await open('light', false)
    await expect(page.getByTestId('history-empty').textContent()).resolves.toMatch(/^No requests yet\. Each request through/)
    expect(await page.getByTestId('history-export-csv').isDisabled()).toBe(true)
    expect(await seriousAxeIssues(page)).toEqual([])
  })

  it("the tray popover shows today's tokens from the history", async () => {
    const { page } = await open('light', true, 'popover.html')
    await expect(page.getByTestId('pop-today').textContent()).resolves.toBe('Today 2,100 tokens generated in 6 requests')
  })

  it('exports every request as CSV where the save dialog says', async () => {
    const s = await open('light', true)
    saveTo = s.home
    try {
      await s.page.getByTestId('history-export-csv').click()
      const text = await s.page.getByTestId('history-message').textContent()
      const saved = /^Saved (.+\.csv)\.$/.exec(text ?? '')?.[1]
      expect(saved).toBe(join(s.home, 'llama-tray-history.csv'))
      expect(readFileSync(saved!, 'utf8').trimEnd().split('\r\n')).toHaveLength(1 + 22 * 6)
    } finally {
      saveTo = null
    }
  })
})
