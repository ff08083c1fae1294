import type { HistoryDay } from '../../../app/contract/history'
import { SeriesHistory } from './series-history'

/** Epoch seconds of a local YYYY-MM-DD's noon (the day's point on a chart). */
export const daySec = (day: string): number => new Date(`${day}T12:00:00`).getTime() / 1000

/** Days summed over profiles: prompt and generated tokens per day, one point each. */
export function tokensPerDay(days: readonly HistoryDay[]): SeriesHistory {
  const byDay = new Map<string, [number, number]>()
  for (const d of days) {
    const t = byDay.get(d.day) ?? [0, 0]
    byDay.set(d.day, [t[0] + d.promptTokens, t[1] + d.generatedTokens])
  }
  const out = new SeriesHistory(2, Math.max(1, byDay.size))
  for (const [day, [prompt, generated]] of [...byDay].sort(([a], [b]) => a.localeCompare(b))) out.add(daySec(day), [prompt, generated])
  return out
}

/** One profile's generation and prompt speed per day (null on a day without a timed request). */
export function speedPerDay(days: readonly HistoryDay[], profileId: string | null): SeriesHistory {
  const own = days.filter((d) => d.profileId === profileId)
  const out = new SeriesHistory(2, Math.max(1, own.length))
  for (const d of own) out.add(daySec(d.day), [d.generationPerSecond, d.promptPerSecond])
  return out
}

/** The profiles in the days, the busiest (most generated tokens) first. */
export function profilesOf(days: readonly HistoryDay[]): { readonly id: string | null; readonly name: string }[] {
  const totals = new Map<string | null, { name: string; tokens: number }>()
  for (const d of days) {
    const t = totals.get(d.profileId) ?? { name: d.profileName ?? d.profileId ?? 'no profile', tokens: 0 }
    t.tokens += d.generatedTokens
    totals.set(d.profileId, t)
  }
  return [...totals].sort((a, b) => b[1].tokens - a[1].tokens).map(([id, t]) => ({ id, name: t.name }))
}

/** A profile's slowest and fastest day by generation speed (days with a speed), or null when it has none. */
export function slowestAndFastest(
  days: readonly HistoryDay[],
  profileId: string | null,
): { slowest: HistoryDay; fastest: HistoryDay } | null {
  const timed = days.filter((d) => d.profileId === profileId && d.generationPerSecond !== null)
  if (timed.length === 0) return null
  const sorted = [...timed].sort((a, b) => (a.generationPerSecond as number) - (b.generationPerSecond as number))
  return { slowest: sorted[0]!, fastest: sorted[sorted.length - 1]! }
}
