import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHART_COLOR } from '../renderer/src/lib/chart-colors'
import { REPO_ROOT } from './helpers/paths'

const css = readFileSync(join(REPO_ROOT, 'renderer', 'src', 'styles.css'), 'utf8')
const darkStart = css.indexOf('@media (prefers-color-scheme: dark)')
const light = css.slice(0, darkStart)
const dark = css.slice(darkStart, css.indexOf('\n}\n', darkStart))

describe('theme tokens', () => {
  it.each(Object.values(CHART_COLOR))('%s is a hex colour in the light and in the dark theme', (token) => {
    expect(light).toMatch(new RegExp(`${token}: #[0-9a-f]{6};`))
    expect(dark).toMatch(new RegExp(`${token}: #[0-9a-f]{6};`))
  })

  it('the charts name tokens, not colours of their own', () => {
    const charts = readFileSync(join(REPO_ROOT, 'renderer', 'src', 'components', 'Charts.tsx'), 'utf8')
    expect(charts).not.toMatch(/#[0-9a-f]{3,8}\b/i)
    expect(charts).toContain('CHART_COLOR.')
  })

  it('the font stack puts Segoe UI Variable first and falls back to the system UI font', () => {
    expect(css).toMatch(/--font-ui: 'Segoe UI Variable Text', 'Segoe UI Variable', 'Segoe UI', system-ui,/)
  })
})
