import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { LlamaTrayCore, type CoreOptions } from '../../app/core/llama-tray-core'
import { switchAtOnce } from '../support/core/switch-at-once'
import { bridgeCore } from './bridge'

export interface DashboardSession {
  readonly core: LlamaTrayCore
  readonly page: Page
  readonly home: string
  /** Stops every server the core started, closes the page, removes the home folder. */
  close(): Promise<void>
}

/** A real core in a fresh home folder, and a page of the built dashboard bridged to it. */
/** Core options, or a function of the session's home for parts that keep files there (the live advisor's mutes). */
export type SessionOptions = Omit<CoreOptions, 'home'> | ((home: string) => Omit<CoreOptions, 'home'>)

export async function openDashboard(
  browser: Browser,
  url: string,
  options: SessionOptions,
  view: { width: number; height: number; colorScheme: 'light' | 'dark' } = { width: 1100, height: 820, colorScheme: 'light' },
): Promise<DashboardSession> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-e2e-'))
  const core = await LlamaTrayCore.create({ home, ...(typeof options === 'function' ? options(home) : options) })
  await switchAtOnce(core)
  const context = await browser.newContext({ viewport: { width: view.width, height: view.height }, colorScheme: view.colorScheme })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  // Console errors include Content-Security-Policy violations and React warnings.
  // (frame-ancestors in index.html's meta CSP is ignored by design: Electron's window cannot be framed anyway.)
  page.on('console', (m) => m.type() === 'error' && !m.text().includes("'frame-ancestors' is ignored") && errors.push(m.text()))
  const unbridge = await bridgeCore(page, core)
  await page.goto(url)
  return {
    core,
    page,
    home,
    close: async () => {
      unbridge()
      await core.dispose()
      await context.close()
      rmSync(home, { recursive: true, force: true })
      if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`)
    },
  }
}

/** Resolves once the Running view's state badge shows `expected`. */
export async function waitForState(page: Page, expected: string, timeout = 120_000): Promise<void> {
  await page
    .getByTestId('server-state')
    .and(page.locator(`[data-state="${expected}"]`))
    .waitFor({ timeout })
}

/** Resolves after n more snapshots of the core (each one also reaches the page). */
export function nextSnapshots(core: LlamaTrayCore, n: number): Promise<void> {
  return new Promise((resolve) => {
    let left = n
    const off = core.on('snapshot', () => {
      if (--left > 0) return
      off()
      resolve()
    })
  })
}
