import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { DEFAULT_SETTINGS } from '../app/contract/settings'
import { launchChromium } from '../test/e2e/browser'
import { installBridge } from '../test/e2e/bridge'
import { buildRenderer } from '../test/e2e/build-renderer'
import { serveFolder } from '../test/e2e/static-server'
import { median, type BenchRow } from './bench-row'
import { DASHBOARD_PAGE_SCRIPT } from './dashboard-page-script'

const HISTORY = 600 // 10 minutes at 1 Hz
const MEASURED = 120

/** Answers the dashboard's start-up queries with a running profile; snapshots are pushed by the page script. */
async function fakeMain(channel: string): Promise<unknown> {
  const status = {
    state: 'ready',
    profileId: 'qwen',
    pid: 4242,
    host: '127.0.0.1',
    port: 8081,
    exe: '/opt/llama-server',
    readySince: Date.now(),
    sleepIdleSeconds: null,
    lastExit: null,
    restarts: 0,
  }
  const profile = {
    id: 'qwen',
    name: 'Qwen3.6-35B-A3B Q4_K_M',
    binary: '/opt/llama-server',
    model: '/models/qwen.gguf',
    draftModel: '/models/draft.gguf',
    engine: 'mainline',
    notes: '',
    active: true,
    updatedAt: new Date().toISOString(),
  }
  const answers: Record<string, unknown> = {
    'server:status': status,
    'snapshot:latest': null,
    'server:logs': [],
    'profiles:list': { health: 'ok', messages: [], activeProfileId: 'qwen', profiles: [profile] },
    'settings:get': DEFAULT_SETTINGS,
    'dashboard:visible': undefined,
  }
  if (!(channel in answers)) throw new Error(`the bench does not answer ${channel}`)
  return answers[channel]
}

async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  return usedSize / 1024 / 1024
}

function delta(
  before: { metrics: { name: string; value: number }[] },
  after: { metrics: { name: string; value: number }[] },
  name: string,
): number {
  const v = (m: typeof before): number => m.metrics.find((x) => x.name === name)?.value ?? NaN
  return (v(after) - v(before)) * 1000
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN
}

const run = (page: Page, count: number, measure: boolean): Promise<number[]> =>
  page.evaluate(
    ([c, m]) => (globalThis as unknown as { __dashBench: { run: (c: number, m: boolean) => Promise<number[]> } }).__dashBench.run(c, m),
    [count, measure] as const,
  )

/**
 * Render cost of the dashboard in Chromium: the time per 1 Hz update (push,
 * React commit, uPlot redraw, forced layout) with 10 minutes of history, and
 * the JS heap after 30 simulated minutes against after 1 and after 10 (GC first).
 * Knobs for attributing heap growth: DASH_BENCH_LOG_EVERY=N (a log line every
 * N s, 0 for none; default 3) and DASH_BENCH_TAB=tab-settings (charts unmounted).
 */
export async function benchDashboard(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'llama-tray-bench-renderer-'))
  const site = await serveFolder(await buildRenderer(dir))
  const browser = await launchChromium()
  try {
    const context = await browser.newContext({ viewport: { width: 1100, height: 820 } })
    const page = await context.newPage()
    await installBridge(page, (channel) => fakeMain(channel))
    await page.goto(site.url)
    await page.getByTestId('chart-tokens').waitFor()
    await page.evaluate(`window.__dashBenchLogEvery = ${Number(process.env.DASH_BENCH_LOG_EVERY ?? 3)}`)
    if (process.env.DASH_BENCH_TAB) await page.getByTestId(process.env.DASH_BENCH_TAB).click()
    await page.evaluate(DASHBOARD_PAGE_SCRIPT)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')

    // Heap at checkpoints (simulated minutes), after GC each time.
    const heap = new Map<number, number>()
    let done = 0
    const until = async (minutes: number): Promise<void> => {
      await run(page, minutes * 60 - done, false)
      done = minutes * 60
      heap.set(minutes, await heapMiB(cdp))
    }
    await until(1)
    await until(5)
    await until(10)

    // Scripting per update, from Chromium's own counters around each update (10 min of history shown).
    const scripting: number[] = []
    const wall = await run(page, 1, true) // warm the step path
    wall.length = 0
    for (let i = 0; i < MEASURED; i++) {
      const before = await cdp.send('Performance.getMetrics')
      wall.push(...(await run(page, 1, true)))
      const after = await cdp.send('Performance.getMetrics')
      scripting.push(
        delta(before, after, 'ScriptDuration') + delta(before, after, 'LayoutDuration') + delta(before, after, 'RecalcStyleDuration'),
      )
    }
    done += MEASURED + 1
    await until(20)
    await until(30)
    const h = (m: number): number => heap.get(m) ?? NaN
    process.stderr.write(`dashboard heap by simulated minute: ${[...heap].map(([m, v]) => `${m}: ${v.toFixed(2)} MiB`).join(', ')}\n`)
    return [
      {
        group: 'dashboard',
        name: `1 Hz update: script+style+layout, ${HISTORY} s history, median of ${MEASURED} (goal ≤ 4)`,
        value: median(scripting),
        unit: 'ms',
      },
      { group: 'dashboard', name: '1 Hz update: script+style+layout, p95', value: percentile(scripting, 0.95), unit: 'ms' },
      { group: 'dashboard', name: '1 Hz update: wall time push→layout, median', value: median(wall), unit: 'ms' },
      {
        group: 'dashboard',
        name: 'JS heap after 10 simulated min',
        value: h(10),
        unit: 'MiB',
        baseline: h(1),
        baselineName: 'after 1 min',
      },
      {
        group: 'dashboard',
        name: 'JS heap after 30 simulated min (goal ratio 0.9–1.1)',
        value: h(30),
        unit: 'MiB',
        baseline: h(1),
        baselineName: 'after 1 min',
      },
      {
        group: 'dashboard',
        name: 'JS heap after 30 simulated min, history full',
        value: h(30),
        unit: 'MiB',
        baseline: h(10),
        baselineName: 'after 10 min',
      },
    ]
  } finally {
    await browser.close()
    await site.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
