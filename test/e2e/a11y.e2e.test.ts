import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { model, REPO_ROOT } from '../helpers/paths'
import { seriousAxeIssues, type AxeIssue } from './axe'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openScriptedDashboard, type ScriptedDashboard } from './scripted-dashboard'
import { failedStatus, loadingStatus, LOW_VRAM, readyStatus, runningSnapshot, stoppedStatus } from './scripted-states'
import { serveFolder, type StaticServer } from './static-server'
import { GitHubReleasesStandIn } from '../stand-ins/github-releases'

// Accessibility: axe-core in Chromium over the built renderer, on every view,
// in both themes and in the 360 px popover. The server is scripted (no
// llama-server), the profiles, settings and fit are the real core's.

let browser: Browser
let site: StaticServer
const counts: Record<string, number> = {}

beforeAll(async () => {
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  mkdirSync(join(REPO_ROOT, 'out', 'a11y-views'), { recursive: true })
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  mkdirSync(join(REPO_ROOT, 'out'), { recursive: true })
  writeFileSync(join(REPO_ROOT, 'out', 'a11y-report.json'), `${JSON.stringify(counts, null, 2)}\n`)
  process.stdout.write(`axe serious+critical per view: ${JSON.stringify(counts)}\n`)
})

const LOG = [
  'main: HTTP server is listening, hostname: 127.0.0.1, port: 8081',
  'slot print_timing: id  0 | task 7 | n_gen = 640, tg = 33.6 t/s',
  'srv  log_server_r: request: POST /completion 127.0.0.1 200',
]

async function scan(name: string, s: ScriptedDashboard): Promise<AxeIssue[]> {
  // Let React commit and the charts draw before looking.
  await s.page.waitForTimeout(150)
  const issues = await seriousAxeIssues(s.page)
  counts[name] = issues.length
  // What was scanned, for a reviewer (out/ only).
  await s.page.screenshot({ path: join(REPO_ROOT, 'out', 'a11y-views', `${name.replace(/[^a-z0-9]+/gi, '-')}.png`), fullPage: true })
  return issues
}

async function tab(s: ScriptedDashboard, id: string): Promise<void> {
  await s.page.getByTestId(`tab-${id}`).click()
}

for (const [label, view] of [
  ['light', { width: 1100, height: 820, colorScheme: 'light' }],
  ['dark', { width: 1100, height: 820, colorScheme: 'dark' }],
  ['popover dark', { width: 360, height: 640, colorScheme: 'dark' }],
  ['popover light', { width: 360, height: 640, colorScheme: 'light' }],
] as const) {
  describe(`axe-core on every view (${label})`, () => {
    let s: ScriptedDashboard
    let profileId: string
    beforeAll(async () => {
      s = await openScriptedDashboard(browser, site.url, view)
      const imported = await s.core.handlers['profiles:import'](
        formatCommandLine([
          '/opt/llama.cpp/llama-server',
          '-m',
          model('tiny-target.gguf'),
          '-md',
          model('tiny-draft.gguf'),
          '--n-cpu-moe',
          '4',
          '-c',
          '4096',
          '-np',
          '1',
        ]),
        'Qwen3.6-35B-A3B (tiny stand-in)',
      )
      if (!imported.ok) throw new Error(imported.error.sentence)
      profileId = imported.value.id
      await s.page.getByTestId('server-state').waitFor()
    }, 60_000)
    afterAll(async () => {
      await s?.close()
    })

    const cases: readonly [string, () => Promise<void>][] = [
      [
        'stopped',
        async () => {
          await s.show(stoppedStatus(profileId), runningSnapshot(stoppedStatus(profileId), { gpu: false }))
          await s.page.locator('[data-testid="server-state"][data-state="stopped"]').waitFor()
        },
      ],
      [
        'loading',
        async () => {
          // A profile that loaded in about 40 s before, 12 s into this load: the bar.
          const loading = loadingStatus(profileId)
          await s.show(
            loading,
            { ...runningSnapshot(loading), load: { profileId, startedAt: Date.now() - 12_000, expectedMs: 40_000, previousLoads: 3 } },
            LOG,
          )
          await s.page.getByTestId('load-bar').waitFor()
        },
      ],
      [
        'running',
        async () => {
          await s.show(readyStatus(profileId), runningSnapshot(readyStatus(profileId)), LOG)
          await s.page.locator('[data-testid="server-state"][data-state="ready"]').waitFor()
        },
      ],
      [
        'sleeping',
        async () => {
          const sleeping = { ...readyStatus(profileId), state: 'sleeping' as const, sleepIdleSeconds: 300 }
          await s.show(sleeping, runningSnapshot(sleeping), LOG)
          await s.page.getByTestId('sleeping-note').waitFor()
        },
      ],
      [
        'warning',
        async () => {
          await s.show(readyStatus(profileId), runningSnapshot(readyStatus(profileId), { warnings: [{ ...LOW_VRAM, profileId }] }))
          await s.page.getByTestId('warning').first().waitFor()
        },
      ],
      [
        'failed',
        async () => {
          await s.show(failedStatus(profileId), runningSnapshot(failedStatus(profileId), { gpu: false }))
          await s.page.getByTestId('failure').waitFor()
        },
      ],
      [
        'profiles, editor and fit',
        async () => {
          await s.show(readyStatus(profileId), runningSnapshot(readyStatus(profileId)))
          await tab(s, 'profiles')
          await s.page.getByTestId('profile-editor').waitFor()
          await s.page.getByTestId('fit-panel').waitFor({ timeout: 20_000 })
          // Every section open: the fields under "More" are scanned too.
          const closed = s.page.locator('details.more:not([open]) > summary')
          expect(await closed.count()).toBeGreaterThan(0)
          while ((await closed.count()) > 0) await closed.first().click()
        },
      ],
      [
        'logs',
        async () => {
          await tab(s, 'logs')
          await s.page.getByTestId('log-lines').waitFor()
        },
      ],
      [
        'bench',
        async () => {
          await tab(s, 'bench')
          await s.page.getByTestId('bench-start').waitFor()
        },
      ],
      [
        'settings',
        async () => {
          await tab(s, 'settings')
          await s.page.getByTestId('settings-save').waitFor()
        },
      ],
    ]
    for (const [name, open] of cases) {
      it(`${name}: no serious or critical issue`, async () => {
        if (name === 'stopped' || name === 'loading' || name === 'running' || name === 'warning' || name === 'failed')
          await tab(s, 'dashboard')
        await open()
        expect(await scan(`${label} · ${name}`, s)).toEqual([])
      }, 60_000)
    }

    // Keyboard (after the views, on a running server): Tab reaches every visible control, each with a focus ring.
    it('keyboard: Tab reaches every control of the Running view and the editor, each with a visible focus ring', async () => {
      for (const view of ['dashboard', 'profiles'] as const) {
        await tab(s, view)
        if (view === 'profiles') await s.page.getByTestId('fit-panel').waitFor({ timeout: 20_000 })
        const expected = await s.page.evaluate(() => {
          const d = (
            globalThis as unknown as {
              document: {
                querySelectorAll: (q: string) => ArrayLike<{
                  getAttribute: (n: string) => string | null
                  getClientRects: () => ArrayLike<unknown>
                  closest: (q: string) => unknown
                  dataset: Record<string, string>
                  setAttribute: (n: string, v: string) => void
                }>
              }
            }
          ).document
          const all = Array.from(d.querySelectorAll('button, input, select, textarea, summary, a[href]'))
          const visible = all.filter(
            (e) =>
              e.getClientRects().length > 0 &&
              e.getAttribute('disabled') === null &&
              e.getAttribute('tabindex') !== '-1' &&
              !e.closest('details:not([open]) > :not(summary)'),
          )
          visible.forEach((e, i) => e.setAttribute('data-kb', String(i)))
          return visible.length
        })
        expect(expected).toBeGreaterThan(3)
        const reached = new Set<string>()
        let unringed: string[] = []
        await s.page.locator('body').focus()
        for (let i = 0; i < expected + 5; i++) {
          await s.page.keyboard.press('Tab')
          const info = await s.page.evaluate(() => {
            const d = (
              globalThis as unknown as {
                document: { activeElement: { getAttribute: (n: string) => string | null; outerHTML: string } | null }
                getComputedStyle: (e: unknown) => { outlineStyle: string; outlineWidth: string }
              }
            ).document
            const el = d.activeElement
            if (!el) return null
            const style = (
              globalThis as unknown as { getComputedStyle: (e: unknown) => { outlineStyle: string; outlineWidth: string } }
            ).getComputedStyle(el)
            return {
              kb: el.getAttribute('data-kb'),
              ring: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
              html: el.outerHTML.slice(0, 120),
            }
          })
          if (info?.kb) reached.add(info.kb)
          if (info?.kb && !info.ring) unringed = [...unringed, info.html]
        }
        expect(unringed, `${view}: focused without a visible ring`).toEqual([])
        expect(reached.size, `${view}: controls reached by Tab`).toBe(expected)
      }
    }, 60_000)
  })
}

// The first run: a machine with nothing on it (a fresh user home), the GitHub stand-in's release. Scanned with the
// offer, during a download held in the middle (the progress bar), and after the download failed its sha256.
const FIRST_RUN_ASSET = 'llama-v0.5.0-bin-ubuntu-x64.tar.gz'
for (const [label, view] of [
  ['light', { width: 1100, height: 820, colorScheme: 'light' }],
  ['dark', { width: 1100, height: 820, colorScheme: 'dark' }],
  ['popover dark', { width: 360, height: 640, colorScheme: 'dark' }],
] as const) {
  describe(`axe-core on the first run (${label})`, () => {
    let s: ScriptedDashboard
    let gh: GitHubReleasesStandIn
    let userHome: string
    const saved = { HOME: process.env.HOME, HF_HOME: process.env.HF_HOME, GITHUB_API_URL: process.env.GITHUB_API_URL }
    beforeAll(async () => {
      userHome = mkdtempSync(join(tmpdir(), 'llama-tray-a11y-user-'))
      gh = await new GitHubReleasesStandIn().start([
        {
          tag: 'v0.5.0',
          publishedAt: '2026-11-28T12:00:00Z',
          assets: [{ name: FIRST_RUN_ASSET, body: Buffer.alloc(256 * 1024, 1), digest: `sha256:${'0'.repeat(64)}` }],
        },
      ])
      Object.assign(process.env, { HOME: userHome, HF_HOME: join(userHome, 'hf'), GITHUB_API_URL: gh.apiUrl })
      s = await openScriptedDashboard(browser, site.url, view)
    }, 60_000)
    afterAll(async () => {
      await s?.close()
      await gh?.close()
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
      rmSync(userHome, { recursive: true, force: true })
    })

    it('the offer, a download in progress and a refused download: no serious or critical issue', async () => {
      await s.page.getByTestId('engine-plan').waitFor({ timeout: 30_000 })
      expect(await scan(`${label} · first run`, s)).toEqual([])
      let release = (): void => {}
      gh.pauseNext.set(FIRST_RUN_ASSET, { bytes: 64 * 1024, until: new Promise<void>((r) => (release = r)) })
      await s.page.getByTestId('engine-install').click()
      try {
        await s.page.getByTestId('engine-progress-bar').waitFor({ timeout: 30_000 })
        expect(await scan(`${label} · first run, downloading`, s)).toEqual([])
      } finally {
        release()
      }
      await s.page.getByTestId('engine-error').waitFor({ timeout: 30_000 })
      expect(await scan(`${label} · first run, refused`, s)).toEqual([])
    }, 90_000)
  })
}
