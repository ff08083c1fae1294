import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { model, REPO_ROOT } from '../helpers/paths'
import { seriousAxeIssues } from './axe'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openScriptedDashboard, type ScriptedDashboard } from './scripted-dashboard'
import {
  failedStatus,
  GAME_STOPPED,
  loadingStatus,
  LONGEST_WARNING,
  longestFailureStatus,
  LOW_VRAM,
  ON_BATTERY,
  readyStatus,
  runningSnapshot,
  stoppedStatus,
} from './scripted-states'
import { serveFolder, type StaticServer } from './static-server'

// The tray popover (renderer/popover.html) in Chromium at its window's size,
// over a real LlamaTrayCore for profiles and settings, the server scripted:
// every state fits 360 x 520 with nothing scrolling, and axe finds nothing
// serious in light or dark.

const SIZE = { width: 360, height: 520 }
// Screenshots go to out/ on every run; UPDATE_SCREENSHOTS=1 refreshes the committed ones in docs/.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')
const LOG = ['main: HTTP server is listening, hostname: 127.0.0.1, port: 8081', 'load_tensors: loading model tensors']

let browser: Browser
let site: StaticServer

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  mkdirSync(SCREENSHOTS, { recursive: true })
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

async function importProfile(s: ScriptedDashboard, name: string): Promise<string> {
  const line = formatCommandLine(['/opt/llama.cpp/llama-server', '-m', model('tiny-target.gguf'), '--n-cpu-moe', '4', '-c', '4096'])
  const r = await s.core.handlers['profiles:import'](line, name)
  if (!r.ok) throw new Error(r.error.sentence)
  return r.value.id
}

interface Overflow {
  readonly scrollWidth: number
  readonly scrollHeight: number
  readonly width: number
  readonly height: number
  readonly pastRight: readonly string[]
}

/** Nothing wider or taller than the window: the document does not scroll, no element reaches past the right edge (runs in the page). */
const MEASURE = `(() => {
  const d = document.documentElement
  const pastRight = [...document.querySelectorAll('.popover *')]
    .filter((e) => !e.closest('.visually-hidden') && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((e) => e.tagName.toLowerCase() + '.' + e.getAttribute('class'))
  return { scrollWidth: d.scrollWidth, scrollHeight: d.scrollHeight, width: window.innerWidth, height: window.innerHeight, pastRight }
})()`

function overflow(page: Page): Promise<Overflow> {
  return page.evaluate(MEASURE) as Promise<Overflow>
}

async function expectFits(page: Page): Promise<void> {
  const o = await overflow(page)
  expect(o.pastRight).toEqual([])
  expect(o.scrollWidth).toBeLessThanOrEqual(o.width)
  expect(o.scrollHeight).toBeLessThanOrEqual(o.height)
}

for (const colorScheme of ['light', 'dark'] as const) {
  describe(`the tray popover at 360 x 520 (${colorScheme})`, () => {
    let s: ScriptedDashboard
    let qwen: string
    let gpt: string
    beforeAll(async () => {
      s = await openScriptedDashboard(browser, `${site.url}popover.html`, { ...SIZE, colorScheme })
      qwen = await importProfile(s, 'Qwen3.6-35B-A3B with a long name that has to end in an ellipsis')
      gpt = await importProfile(s, 'GPT-OSS 20B')
      await s.page.locator('[data-testid="server-state"][data-state="stopped"]').waitFor()
      await s.page.getByTestId(`pop-profile-${gpt}`).waitFor()
    }, 60_000)
    afterAll(async () => {
      await s?.close()
    })

    const states: [string, () => Promise<void>][] = [
      [
        'stopped',
        async () => {
          await s.show(stoppedStatus(qwen), runningSnapshot(stoppedStatus(qwen)))
          await s.page.locator('[data-testid="server-state"][data-state="stopped"]').waitFor()
          // The state in words, never a bare dash.
          await expect.poll(() => s.page.getByTestId('live-rate').innerText()).toContain('not running')
          expect(await s.page.getByTestId('pop-state').innerText()).not.toMatch(/(^|\s)—(\s|$)/)
          expect(await s.page.getByTestId('pop-start').innerText()).toContain('Start')
          expect(await s.page.getByTestId('pop-stop').count()).toBe(0)
        },
      ],
      [
        'loading, with its bar',
        async () => {
          const loading = loadingStatus(qwen)
          // 12 s into a load that took about 40 s before: the bar.
          const load = { profileId: qwen, startedAt: Date.now() - 12_000, expectedMs: 40_000, previousLoads: 3 }
          await s.show(loading, { ...runningSnapshot(loading), load }, LOG)
          await s.page.getByTestId('load-bar').waitFor()
          expect(await s.page.getByTestId('server-state').innerText()).toBe('Loading')
        },
      ],
      [
        'ready, idle',
        async () => {
          await s.show(readyStatus(qwen), runningSnapshot(readyStatus(qwen), { generating: false }))
          await expect.poll(() => s.page.getByTestId('live-rate').innerText()).toContain('idle')
          expect(await s.page.getByTestId('server-state').innerText()).toBe('Running')
          expect(await s.page.getByTestId('active-profile').innerText()).toContain('Qwen3.6-35B-A3B')
        },
      ],
      [
        'generating',
        async () => {
          await s.show(readyStatus(qwen), runningSnapshot(readyStatus(qwen)))
          await expect.poll(() => s.page.getByTestId('live-rate').innerText()).toContain('31.4')
          expect(await s.page.getByTestId('live-rate').innerText()).toContain('usual 36.2 tok/s')
          expect(await s.page.getByTestId('pop-energy').innerText()).toContain('2650 J per 1,000 tokens')
          expect(await s.page.getByTestId('pop-vram').innerText()).toContain('2.3 GiB free')
          const bar = s.page.locator('[data-testid="pop-vram"] [role="img"]')
          expect(await bar.getAttribute('aria-label')).toMatch(/^2\.3 GiB free of 8\.0 GiB, keep .* free \(the mark\)$/)
          expect(await s.page.getByTestId('pop-cpu').innerText()).toContain('71%')
          expect(await s.page.getByTestId('heaviest-app').innerText()).toContain('Discord 14%')
        },
      ],
      [
        'a warning',
        async () => {
          const warnings = [
            { ...LOW_VRAM, level: 'info' as const, id: 'info' },
            { ...LOW_VRAM, profileId: qwen },
          ]
          await s.show(readyStatus(qwen), runningSnapshot(readyStatus(qwen), { warnings }))
          // Only the most severe one, as its headline with its fix and the fix's cost; the reason behind "Why?".
          await expect.poll(() => s.page.getByTestId('warning').count()).toBe(1)
          expect(await s.page.getByTestId('warning').getAttribute('data-warning-id')).toBe(LOW_VRAM.id)
          const text = s.page.getByTestId('warning').locator('.pop-warning-text')
          expect(await text.innerText()).toBe(`${LOW_VRAM.headline} Why?`)
          expect(await s.page.getByTestId('warning-fix').innerText()).toBe('Move more experts to the CPU (--n-cpu-moe 38)')
          expect(await s.page.getByTestId('warning-fix-cost').innerText()).toBe('about 1.6 tok/s slower (estimate)')
          // "Why?" from the keyboard: the reason under the headline, then "Less" hides it again.
          const why = s.page.getByTestId('warning-why')
          expect(await why.getAttribute('aria-expanded')).toBe('false')
          await why.focus()
          await s.page.keyboard.press('Enter')
          await expect.poll(() => why.getAttribute('aria-expanded')).toBe('true')
          expect(await text.locator('.warning-rest').innerText()).toBe(LOW_VRAM.reason)
          await expectFits(s.page)
          expect(await seriousAxeIssues(s.page)).toEqual([])
          await s.page.keyboard.press('Enter')
          await expect.poll(() => why.innerText()).toBe('Why?')
        },
      ],
      [
        'failed, with its fix',
        async () => {
          await s.show(failedStatus(qwen), runningSnapshot(failedStatus(qwen), { gpu: false }))
          await s.page.getByTestId('failure').waitFor()
          expect(await s.page.getByTestId('failure').innerText()).toContain('does not exist. Choose the model again in the profile')
          expect(await s.page.getByTestId('pop-vram').innerText()).toContain('No GPU data: no NVIDIA driver found.')
          // The profile that failed is marked so, never active with a green check.
          expect(await s.page.getByTestId(`pop-profile-${qwen}`).innerText()).toContain('failed')
          expect(await s.page.getByTestId(`pop-profile-${qwen}`).innerText()).not.toContain('active')
        },
      ],
      [
        'a game holds the GPU, on battery',
        async () => {
          const stopped = stoppedStatus(qwen)
          await s.show(stopped, { ...runningSnapshot(stopped), game: GAME_STOPPED, power: ON_BATTERY })
          await s.page.getByTestId('game-note').waitFor()
          expect(await s.page.getByTestId('game-note').locator('span').innerText()).toBe(
            'Cyberpunk2077.exe is using the GPU, so the server is stopped until it ends.',
          )
          expect(await s.page.getByTestId('game-keep').innerText()).toBe('Keep running during games')
          expect(await s.page.getByTestId('pop-power').innerText()).toContain('Battery, 41%, battery saver on')
          await s.page.screenshot({ path: join(SCREENSHOTS, `popover-game-${colorScheme}.png`) })
        },
      ],
      [
        'asleep',
        async () => {
          const sleeping = { ...readyStatus(qwen), state: 'sleeping' as const, sleepIdleSeconds: 300 }
          await s.show(sleeping, runningSnapshot(sleeping))
          await s.page.getByTestId('sleeping-note').waitFor()
          expect(await s.page.getByTestId('live-rate').innerText()).toContain('asleep')
          expect(await s.page.getByTestId('server-state').innerText()).toBe('Sleeping')
        },
      ],
    ]

    // Low VRAM with the longest words the app produces: every line wraps inside 360 px, nothing scrolls sideways.
    for (const freeMiB of [700, 0]) {
      states.push([
        `${freeMiB} MiB free, with the longest warning`,
        async () => {
          await s.show(
            readyStatus(qwen),
            runningSnapshot(readyStatus(qwen), { freeMiB, warnings: [{ ...LONGEST_WARNING, profileId: qwen }] }),
          )
          await expect.poll(() => s.page.getByTestId('pop-vram').innerText()).toContain(`${freeMiB} MiB free`)
          expect(await s.page.getByTestId('pop-vram').innerText()).toContain('under the headroom')
          await s.page.getByTestId('warning-fix').waitFor()
          // Its reason open too: the longest words wrap inside 360 px under the headline.
          await s.page.getByTestId('warning-why').click()
          await s.page.getByTestId('warning').locator('.warning-rest').waitFor()
        },
      ])
      states.push([
        `${freeMiB} MiB free, with the longest failure`,
        async () => {
          const failed = longestFailureStatus(qwen)
          await s.show(failed, runningSnapshot(failed, { freeMiB }))
          await s.page.getByTestId('failure').waitFor()
          await expect.poll(() => s.page.getByTestId('pop-vram').innerText()).toContain(`${freeMiB} MiB free`)
        },
      ])
    }

    for (const [name, show] of states) {
      it(`${name}: fits without scrolling and axe finds nothing serious`, async () => {
        await show()
        await expectFits(s.page)
        expect(await seriousAxeIssues(s.page)).toEqual([])
      })
    }

    it('"Keep running during games" sets onGame to keep through the settings command; the line goes with the game', async () => {
      const set = await s.core.handlers['settings:set']({ onGame: 'stop' })
      expect(set.ok).toBe(true)
      const stopped = stoppedStatus(qwen)
      await s.show(stopped, { ...runningSnapshot(stopped), game: GAME_STOPPED })
      await s.page.getByTestId('game-keep').click()
      await expect.poll(async () => (await s.core.handlers['settings:get']()).onGame).toBe('keep')
      // The core brings the profile back and clears the game (the policy's own test): the line goes.
      await s.show(readyStatus(qwen), { ...runningSnapshot(readyStatus(qwen)), game: null })
      await expect.poll(() => s.page.getByTestId('game-note').count()).toBe(0)
      // Kept (no server of ours ran): the line names the game, with no button.
      await s.show(stopped, { ...runningSnapshot(stopped), game: { ...GAME_STOPPED, action: 'kept' } })
      await s.page.getByTestId('game-note').waitFor()
      expect(await s.page.getByTestId('game-keep').count()).toBe(0)
    })

    it('switches profiles and starts and stops from the radio list and its buttons', async () => {
      await s.show(readyStatus(qwen), runningSnapshot(readyStatus(qwen)))
      await s.page.locator('[data-testid="server-state"][data-state="ready"]').waitFor()
      // The running profile is checked and marked active; Stop applies, no Switch yet.
      expect(await s.page.getByTestId(`pop-profile-${qwen}`).locator('input').isChecked()).toBe(true)
      expect(await s.page.getByTestId(`pop-profile-${qwen}`).innerText()).toContain('active')
      expect(await s.page.getByTestId('pop-start').count()).toBe(0)
      // Keyboard: the arrow key moves the choice; only the button switches.
      await s.page.getByTestId(`pop-profile-${qwen}`).locator('input').focus()
      await s.page.keyboard.press('ArrowDown')
      expect(await s.page.getByTestId(`pop-profile-${gpt}`).locator('input').isChecked()).toBe(true)
      expect(s.calls.filter((c) => c.startsWith('server:start'))).toEqual([])
      await s.page.getByTestId('pop-start').click()
      await expect.poll(() => s.calls.at(-1)).toBe(`server:start(${JSON.stringify(gpt)})`)
      await s.page.getByTestId('pop-stop').click()
      await expect.poll(() => s.calls.at(-1)).toBe('server:stop()')
      await s.show(stoppedStatus(qwen), runningSnapshot(stoppedStatus(qwen)))
      await s.page.locator('[data-testid="server-state"][data-state="stopped"]').waitFor()
      await s.page.getByRole('radio', { name: 'GPT-OSS 20B' }).check()
      await s.page.getByRole('button', { name: 'Start GPT-OSS 20B' }).click()
      await expect.poll(() => s.calls.at(-1)).toBe(`server:start(${JSON.stringify(gpt)})`)
      await s.page.getByRole('button', { name: 'Open dashboard' }).click()
      await expect.poll(() => s.calls.at(-1)).toBe('dashboard:open()')
    })

    it('a long list of profiles scrolls in its own box; the popover still fits', async () => {
      for (let i = 0; i < 14; i++) await importProfile(s, `Profile number ${i + 1}`)
      await s.page.getByText('Profile number 14').waitFor()
      // Low VRAM as the warning says it (740 MiB free), with the fit's placement and its cost.
      await s.show(readyStatus(qwen), runningSnapshot(readyStatus(qwen), { freeMiB: 740, warnings: [{ ...LOW_VRAM, profileId: qwen }] }))
      await s.page.getByTestId('warning').waitFor()
      await expectFits(s.page)
      const list = await s.page.getByTestId('pop-profiles').evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight }))
      expect(list.scroll).toBeGreaterThan(list.client)
      // The screenshot: running, generating, a warning.
      for (let i = 0; i < 14; i++) {
        const id = (await s.core.handlers['profiles:list']()).profiles.find((p) => p.name === `Profile number ${i + 1}`)!.id
        await s.core.handlers['profiles:delete'](id)
      }
      await expect.poll(() => s.page.getByText('Profile number 1', { exact: true }).count()).toBe(0)
      await s.page.getByTestId(`pop-profile-${qwen}`).locator('input').check()
      await s.page.screenshot({ path: join(SCREENSHOTS, `popover-${colorScheme}.png`) })
    })
  })
}
