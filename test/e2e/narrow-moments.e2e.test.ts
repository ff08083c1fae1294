import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { model } from '../helpers/paths'
import { seriousAxeIssues } from './axe'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openScriptedDashboard, type ScriptedDashboard } from './scripted-dashboard'
import {
  GAME_STOPPED,
  LONGEST_WARNING,
  longestFailureStatus,
  ON_BATTERY,
  readyStatus,
  runningSnapshot,
  stoppedStatus,
} from './scripted-states'
import { serveFolder, type StaticServer } from './static-server'

// The dashboard in a 360 px window at the moments that matter: VRAM at 700 MiB
// and at 0 MiB free, with the longest warning and failure sentences the app
// words, light and dark. Nothing scrolls sideways, every tab stays in view, axe
// finds nothing serious. (The popover's own states: popover.e2e.test.ts.)

let browser: Browser
let site: StaticServer

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

/** Elements past the window's right edge, and whether the document scrolls sideways (runs in the page). */
const MEASURE = `(() => {
  const d = document.documentElement
  const pastRight = [...document.querySelectorAll('body *')]
    .filter((e) => !e.closest('.visually-hidden') && e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .filter((e) => !e.closest('.chart, .uplot, pre'))
    .map((e) => e.tagName.toLowerCase() + '.' + e.getAttribute('class'))
  return { scrollWidth: d.scrollWidth, width: window.innerWidth, pastRight }
})()`

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const o = (await page.evaluate(MEASURE)) as { scrollWidth: number; width: number; pastRight: string[] }
  expect(o.pastRight).toEqual([])
  expect(o.scrollWidth).toBeLessThanOrEqual(o.width)
}

for (const colorScheme of ['light', 'dark'] as const) {
  describe(`the dashboard at 360 px (${colorScheme})`, () => {
    let s: ScriptedDashboard
    let id: string
    beforeAll(async () => {
      s = await openScriptedDashboard(browser, site.url, { width: 360, height: 720, colorScheme })
      const line = formatCommandLine(['/opt/llama.cpp/llama-server', '-m', model('tiny-target.gguf'), '--n-cpu-moe', '4', '-c', '4096'])
      const r = await s.core.handlers['profiles:import'](line, 'Qwen3.6-35B-A3B with a long name for a narrow window')
      if (!r.ok) throw new Error(r.error.sentence)
      id = r.value.id
    }, 60_000)
    afterAll(async () => {
      await s?.close()
    })

    it('shows every tab in the row, none cut at the edge', async () => {
      await s.page.getByTestId('tab-dashboard').waitFor()
      const tabs = await s.page
        .getByRole('tab')
        .evaluateAll((all) => all.map((t) => ({ right: t.getBoundingClientRect().right, cut: t.scrollWidth > t.clientWidth })))
      expect(tabs.length).toBeGreaterThanOrEqual(5)
      for (const t of tabs) {
        expect(t.right).toBeLessThanOrEqual(360.5)
        expect(t.cut).toBe(false)
      }
    })

    for (const freeMiB of [700, 0]) {
      it(`${freeMiB} MiB free with the longest warning: it wraps, nothing scrolls sideways, axe is clean`, async () => {
        await s.page.getByTestId('tab-dashboard').click()
        await s.show(readyStatus(id), runningSnapshot(readyStatus(id), { freeMiB, warnings: [{ ...LONGEST_WARNING, profileId: id }] }))
        await s.page.locator(`[data-testid="warning"][data-warning-id="${LONGEST_WARNING.id}"]`).first().waitFor()
        await expectNoSidewaysScroll(s.page)
        expect(await seriousAxeIssues(s.page)).toEqual([])
      })

      it(`${freeMiB} MiB free with the longest failure: the header holds it inside 360 px, axe is clean`, async () => {
        const failed = longestFailureStatus(id)
        await s.show(failed, runningSnapshot(failed, { freeMiB }))
        await s.page.getByTestId('failure-notice').waitFor()
        await expectNoSidewaysScroll(s.page)
        expect(await seriousAxeIssues(s.page)).toEqual([])
      })
    }

    it('a game holds the GPU, on battery: the header says which and what was done, the power tile shows, axe is clean', async () => {
      await s.page.getByTestId('tab-dashboard').click()
      const stopped = stoppedStatus(id)
      // A long image name: one word that has to wrap inside 360 px.
      const game = { ...GAME_STOPPED, name: 'HorizonForbiddenWestCompleteEditionLauncherShipping.exe', action: 'sleeping' as const }
      await s.show(stopped, { ...runningSnapshot(stopped), game, power: ON_BATTERY })
      await s.page.getByTestId('game-note').waitFor()
      expect(await s.page.getByTestId('game-note').locator('span').innerText()).toBe(
        `${game.name} is using the GPU, so the server sleeps until it ends (a request wakes it).`,
      )
      expect(await s.page.getByTestId('game-keep').isVisible()).toBe(true)
      expect(await s.page.getByTestId('glance-power').innerText()).toContain('Battery, 41%, battery saver on')
      await expectNoSidewaysScroll(s.page)
      expect(await seriousAxeIssues(s.page)).toEqual([])
    })
  })
}
