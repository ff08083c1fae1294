import { describe, expect, it } from 'vitest'
import type { Warning } from '../../../app/contract/warnings'
import { advisorListFindings, bannerWarnings, foldedLabel } from './banner-warnings'

const w = (id: string, level: Warning['level'], since?: number, rule?: string): Warning => ({
  id,
  level,
  headline: `${id}.`,
  reason: '',
  fix: null,
  ...(since !== undefined ? { since } : {}),
  ...(rule ? { rule } : {}),
})

describe('bannerWarnings', () => {
  it('expands the most severe, the most recent among equals, and folds the rest with a count by level', () => {
    const b = bannerWarnings([w('old-warn', 'warn', 1), w('tip', 'info', 9), w('new-warn', 'warn', 5), w('err', 'error', 2)])
    expect(b.first?.id).toBe('err')
    expect(b.folded.map((x) => x.id)).toEqual(['new-warn', 'old-warn'])
    expect(foldedLabel(b.foldedCounts)).toBe('2 more (2 warnings)')
  })

  it('leaves info-level findings and rules said elsewhere out', () => {
    const b = bannerWarnings(
      [w('tip', 'info'), w('failed', 'error', 3, 'live.server-failed'), w('vram', 'warn', 1)],
      new Set(['live.server-failed']),
    )
    expect(b.first?.id).toBe('vram')
    expect(b.folded).toEqual([])
    expect(bannerWarnings([w('tip', 'info')]).first).toBeNull()
    expect(foldedLabel({ error: 1, warn: 1, info: 0 })).toBe('2 more (1 error, 1 warning)')
  })
})

describe('advisorListFindings', () => {
  it("puts the running profile's info-level findings in its advisor list, the ones the banner leaves out", () => {
    // Shaped as the live advisor gives them: lint findings of the running profile, with its id.
    const of = (id: string, level: Warning['level'], profileId: string): Warning => ({ ...w(id, level), source: 'lint', profileId })
    const warnings = [of('lint.sleep-idle@a', 'info', 'a'), of('lint.auto-slots@a', 'warn', 'a'), of('lint.draft-kv-f16@b', 'info', 'b')]
    expect(advisorListFindings(warnings, 'a').map((x) => x.id)).toEqual(['lint.sleep-idle@a'])
    const banner = bannerWarnings(warnings)
    expect([banner.first, ...banner.folded].map((x) => x?.level)).toEqual(['warn'])
  })
})
