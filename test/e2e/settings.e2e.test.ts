import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BUILT_IN_HEAVY_APPS } from '../../app/contract/heavy-apps'
import { formatCommandLine } from '../../app/lib/command-line'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// Issue #25: the port-clash hint says "set Settings → Port to N"; in Chromium on the real core and the
// real llama-server, doing just that in the Settings view gets the server running on N.
let browser: Browser
let site: StaticServer
let session: DashboardSession | null = null
let blocker: Server | null = null
const pids = new Set<number>()
const savedPortOverride = process.env.LLAMA_TRAY_PORT

beforeAll(async () => {
  // The suite gives every server any free port; this test is about the port setting itself.
  delete process.env.LLAMA_TRAY_PORT
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)

afterEach(async () => {
  await session?.close()
  session = null
  await new Promise((r) => (blocker ? blocker.close(r) : r(undefined)))
  for (const pid of pids) expect(isRunning(pid), `llama-server ${pid} left running`).toBe(false)
}, 120_000)

afterAll(async () => {
  if (savedPortOverride !== undefined) process.env.LLAMA_TRAY_PORT = savedPortOverride
  await browser?.close()
  await site?.close()
})

/** A loopback port held by another program for the whole test. */
async function holdPort(): Promise<number> {
  blocker = createServer()
  await new Promise<void>((resolve) => blocker?.listen(0, '127.0.0.1', resolve))
  return (blocker.address() as { port: number }).port
}

describe('the Settings view (issue #25)', () => {
  it("changes the port: a refused value gets the core's sentence, a taken port names the fix, and the fix runs the server there", async () => {
    const s = await openDashboard(browser, site.url, { telemetry: null })
    session = s
    const { core, page, home } = s
    core.on('server:state-changed', (st) => st.pid && pids.add(st.pid))
    await page.getByTestId('tab-settings').click()
    await page.getByTestId('settings-save').waitFor()
    // Every setting of issue #25 has its field; the built-in heavy apps are listed beside the user's.
    for (const key of [
      'port',
      'endpoint',
      'switchOnRequest',
      'heldRequestsMax',
      'heldRequestWaitS',
      'vramHeadroomMiB',
      'engineUpdateCheck',
      'heavyApps',
    ]) {
      await page.getByTestId(`setting-${key}`).waitFor()
    }
    await expect(page.getByTestId('builtin-heavy-apps').textContent()).resolves.toBe(
      `Built in (always counted): ${BUILT_IN_HEAVY_APPS.map((a) => a.name).join(', ')}.`,
    )

    const port = page.getByTestId('setting-port')
    /** Saves and waits for the view to say the outcome (the message of the previous save stays until then). */
    const saveSays = async (expected: string): Promise<void> => {
      await page.getByTestId('settings-save').click()
      await expect.poll(() => page.getByTestId('settings-message').textContent()).toBe(expected)
    }
    await port.fill('70000')
    await saveSays('The port setting takes a whole number from 1 to 65535, like 8080; "70000" is not one.')
    expect(core.settings.port).toBe(8080)

    // The port chosen in Settings is taken by another program: the start fails and its hint names the way out.
    const taken = await holdPort()
    await port.fill(String(taken))
    await saveSays('Saved.')
    await expect.poll(() => core.settings.port).toBe(taken)
    const profile = await core.handlers['profiles:import'](
      formatCommandLine([llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '512', '-np', '1', '-t', '1']),
      'tiny',
    )
    if (!profile.ok) throw new Error(profile.error.sentence)
    expect((await core.handlers['server:start'](profile.value.id)).ok).toBe(false)
    const hint = core.server.getStatus().lastExit?.hint ?? ''
    const suggested = /set Settings → Port to (\d+) \(free now\), or run llama-tray settings set port (\d+)$/.exec(hint)
    expect(suggested, hint).not.toBeNull()
    expect(suggested?.[2]).toBe(suggested?.[1])

    // Doing what the hint says, in the Settings view.
    await port.fill(suggested?.[1] as string)
    await saveSays('Saved.')
    await expect.poll(() => core.settings.port).toBe(Number(suggested?.[1]))
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).port).toBe(Number(suggested?.[1]))
    expect((await core.handlers['server:start'](profile.value.id)).ok).toBe(true)
    expect(core.server.getStatus().port).toBe(Number(suggested?.[1]))
    const health = await fetch(`http://127.0.0.1:${suggested?.[1]}/health`)
    expect(health.status).toBe(200)
  }, 240_000)
})
