import type { Warning, WarningLevel } from '../../../app/contract/warnings'

const SEVERITY: Readonly<Record<WarningLevel, number>> = { error: 2, warn: 1, info: 0 }

export interface BannerWarnings {
  /** The one warning shown in full: the most severe, the most recent among equals. */
  readonly first: Warning | null
  /** The others, folded behind "2 more", in the same order. */
  readonly folded: readonly Warning[]
  /** How many of each level are folded ("1 error, 1 warning"). */
  readonly foldedCounts: Readonly<Record<WarningLevel, number>>
}

/**
 * What the banner shows: info-level findings stay in the profile's advisor
 * list, rules said elsewhere (the header's failure) are left out, and of the
 * rest one is expanded.
 */
export function bannerWarnings(warnings: readonly Warning[], saidElsewhere: ReadonlySet<string> = new Set()): BannerWarnings {
  const shown = warnings
    .filter((w) => w.level !== 'info' && !(w.rule !== undefined && saidElsewhere.has(w.rule)))
    .sort((a, b) => SEVERITY[b.level] - SEVERITY[a.level] || (b.since ?? 0) - (a.since ?? 0))
  const [first = null, ...folded] = shown
  const foldedCounts = { error: 0, warn: 0, info: 0 }
  for (const w of folded) foldedCounts[w.level]++
  return { first, folded, foldedCounts }
}

/** "2 more (1 error, 1 warning)". */
export function foldedLabel(counts: Readonly<Record<WarningLevel, number>>): string {
  const parts = [
    counts.error > 0 ? `${counts.error} error${counts.error > 1 ? 's' : ''}` : null,
    counts.warn > 0 ? `${counts.warn} warning${counts.warn > 1 ? 's' : ''}` : null,
  ].filter((p): p is string => p !== null)
  return `${counts.error + counts.warn} more (${parts.join(', ')})`
}

/** The profile's advisor list: its info-level findings (tips), which never become banners; the core's order. */
export function advisorListFindings(warnings: readonly Warning[], profileId: string): readonly Warning[] {
  return warnings.filter((w) => w.level === 'info' && w.profileId === profileId)
}
