import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/paths'
import { linuxPath, loadLane, runWine, type Lane } from './lane'

// The game watch's Win32 bindings under Windows Node and Wine 8, as the app composes them: the PDH per-process GPU
// counters, PowerRegisterForEffectivePowerModeNotifications (Game Mode) and SHQueryUserNotificationState (the
// full-screen hint). Wine is not Windows: it has no GPU counters, no effective power mode, and its shell notification
// state is a stub with one fixed answer. So these tests check that each binding loads, answers "unknown" (or Wine's
// fixed state) without throwing, and that the game watch then does nothing. What Windows answers (a game's counters,
// Game Mode on) is checked by hand: docs/windows-manual-checklist.md. (The power source and device power state
// bindings have their own lane tests.)

const found = loadLane()
const lane = 'unavailable' in found ? null : found
const skipReason = 'unavailable' in found ? found.unavailable : ''

interface ProbeReport {
  readonly pdh: { readonly reads: readonly ({ value: unknown } | { threw: string })[]; readonly problem: string | null }
  readonly reader: { readonly read: { value: unknown } | { threw: string }; readonly problem: string | null }
  readonly gameMode: { readonly opened: boolean; readonly reason?: string | null; readonly read?: boolean | null }
  readonly threwOnGameMode: string | null
  readonly notification: {
    readonly opened: boolean
    readonly reason?: string
    readonly reads?: readonly (boolean | null)[]
    readonly raw?: number | null
  }
  readonly watch: { readonly looks: readonly unknown[]; readonly game: unknown }
}

/** QUNS_ACCEPTS_NOTIFICATIONS (shellapi.h): the state Wine's stub always answers. */
const QUNS_ACCEPTS_NOTIFICATIONS = 5

let report: ProbeReport
let bundleDir = ''

/** Bundles the probe (the app's own bindings) into one .mjs; it runs beside the staged CLI so that it finds its koffi. */
async function bundleProbe(): Promise<string> {
  bundleDir = mkdtempSync(join(tmpdir(), 'llama-tray-game-probe-'))
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      ssr: join(REPO_ROOT, 'test', 'windows', 'fixtures', 'game-bindings-probe.ts'),
      outDir: bundleDir,
      emptyOutDir: true,
      target: 'node20',
      rollupOptions: {
        external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'koffi'],
        output: { format: 'es', entryFileNames: 'game-bindings-probe.mjs' },
      },
    },
  })
  return join(bundleDir, 'game-bindings-probe.mjs')
}

/**
 * Runs the probe from the staged CLI folder under a name of its own. Another engineer's staging of the lane replaces
 * that folder (a rename): a probe lost that way is copied again and rerun, at most three times.
 */
function runProbe(l: Lane, bundle: string): ProbeReport {
  const name = `game-bindings-probe-${process.pid}.mjs`
  let last = ''
  for (let attempt = 0; attempt < 3; attempt++) {
    const staged = linuxPath(l, `${l.win.cliDir}\\${name}`)
    try {
      copyFileSync(bundle, staged)
      const r = runWine(l, [l.win.node, `${l.win.cliDir}\\${name}`])
      last = r.output
      const line = r.output.split('\n').find((s) => s.startsWith('{'))
      if (r.code === 0 && line) return JSON.parse(line) as ProbeReport
    } catch (err) {
      last = err instanceof Error ? err.message : String(err)
    } finally {
      rmSync(staged, { force: true })
    }
  }
  throw new Error(`the probe gave no report: ${last}`)
}

describe.skipIf(!lane)(`the game watch's Win32 bindings under Windows Node and Wine${lane ? '' : ` (skipped: ${skipReason})`}`, () => {
  beforeAll(async () => {
    report = runProbe(lane as Lane, await bundleProbe())
  }, 180_000)
  afterAll(() => {
    if (bundleDir) rmSync(bundleDir, { recursive: true, force: true })
  })

  it('PDH per process: Wine has no GPU counters, so the source answers nothing with PDH_CSTATUS_NO_COUNTER, never a throw', () => {
    // Both reads (the engine counter is a rate: Windows gives its value from the second read on).
    expect(report.pdh.reads).toEqual([{ value: null }, { value: null }])
    expect(report.pdh.problem).toMatch(
      /^the counter \\GPU Process Memory\(\*\)\\Dedicated Usage is not available: PDH_CSTATUS_NO_COUNTER \(0xC0000BB9\)/,
    )
    // The reader the core builds (the device power gate, Toolhelp names): nothing read, the source's reason kept.
    expect(report.reader.read).toEqual({ value: null })
    expect(report.reader.problem).toBe(report.pdh.problem)
  })

  it('Game Mode: Wine has no PowerRegisterForEffectivePowerModeNotifications, so open() says why and Game Mode stays unknown', () => {
    expect(report.threwOnGameMode).toBeNull()
    expect(report.gameMode.opened).toBe(false)
    expect(report.gameMode.reason).toMatch(/^the effective power mode is not available: .*PowerRegisterForEffectivePowerModeNotifications/)
  })

  it("the full-screen hint: Wine's stub always answers QUNS_ACCEPTS_NOTIFICATIONS, read as no full-screen Direct3D app", () => {
    expect(report.notification.opened).toBe(true)
    expect(report.notification.raw).toBe(QUNS_ACCEPTS_NOTIFICATIONS)
    expect(report.notification.reads).toEqual([false, false])
  })

  it('the game watch given those answers (processes unknown, Game Mode unknown, no full screen) sees no game for 15 s', () => {
    expect(report.watch.looks).toEqual([null, null, null, null])
    expect(report.watch.game).toBeNull()
  })
})
