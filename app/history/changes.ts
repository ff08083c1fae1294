import type { HistoryChange, HistorySession } from '../contract/history'

/**
 * Where something changed between one profile's consecutive sessions (the
 * engine's version, the launch's arguments, the GPU driver), so that a drop on
 * the chart has a visible cause. Sessions oldest first.
 */
export function changesOf(sessions: readonly HistorySession[]): HistoryChange[] {
  const last = new Map<string, HistorySession>()
  const out: HistoryChange[] = []
  for (const s of sessions) {
    const key = s.profileId ?? ''
    const before = last.get(key)
    last.set(key, s)
    if (!before) continue
    const mark = (what: HistoryChange['what'], from: string | null, to: string | null): void => {
      if (from !== null && to !== null && from !== to) out.push({ time: s.startedAt, profileId: s.profileId, what, from, to })
    }
    mark('engine', versionOf(before), versionOf(s))
    mark('driver', before.driverVersion, s.driverVersion)
    if (before.launchDigest !== null && s.launchDigest !== null && before.launchDigest !== s.launchDigest)
      out.push({ time: s.startedAt, profileId: s.profileId, what: 'profile', from: null, to: 'edited' })
  }
  return out
}

const versionOf = (s: HistorySession): string | null =>
  s.engine === null && s.engineVersion === null ? null : [s.engine, s.engineVersion].filter((x) => x !== null).join(' ')
