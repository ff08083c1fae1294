import axe from 'axe-core'
import type { Page } from 'playwright-core'

export interface AxeIssue {
  readonly id: string
  readonly impact: string
  readonly help: string
  readonly targets: readonly string[]
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which the
 * page's CSP does not govern) and returns the serious and critical violations.
 */
export async function seriousAxeIssues(page: Page): Promise<AxeIssue[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axe.source)
  const results = await page.evaluate(async () => {
    const g = globalThis as unknown as { axe: typeof axe; document: Parameters<typeof axe.run>[0] }
    const r = await g.axe.run(g.document, { resultTypes: ['violations'] })
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`.slice(0, 300)),
    }))
  })
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
