import { useEffect, useMemo, useState } from 'react'
import type uPlot from 'uplot'
import type { HistoryChange, HistoryOverview, HistorySession } from '../../../app/contract/history'
import { exportHistory, historyOverview } from '../actions/history-actions'
import { CHART_COLOR } from '../lib/chart-colors'
import { profilesOf, slowestAndFastest, speedPerDay, tokensPerDay } from '../lib/history-days'
import { failedOutcome, type Outcome } from '../lib/outcome'
import { readToken } from '../lib/theme-tokens'
import { OutcomeView } from './OutcomeView'
import { UPlotChart, type ChartSeries } from './UPlotChart'

/** How far back the view looks (the CLI's `history --since` goes further). */
const DAYS = 90

const TOKEN_SERIES: readonly ChartSeries[] = [
  { label: 'Prompt tokens', color: CHART_COLOR.vramFree, unit: 'tok' },
  { label: 'Generated tokens', color: CHART_COLOR.tokens, unit: 'tok', fill: true },
]
const SPEED_SERIES: readonly ChartSeries[] = [
  { label: 'Generation', color: CHART_COLOR.tokens, unit: 'tok/s' },
  { label: 'Prompt', color: CHART_COLOR.gpuPower, unit: 'tok/s', scale: 'prompt' },
]

const CHANGE_WORD: Record<HistoryChange['what'], string> = { engine: 'engine', profile: 'profile edited', driver: 'driver' }
const changeText = (c: HistoryChange): string => (c.what === 'profile' ? 'profile edited' : `${CHANGE_WORD[c.what]} ${c.from} → ${c.to}`)
const fmt = (n: number): string => n.toLocaleString('en-US')

/**
 * Draws a dashed vertical line at each change, so a drop on the chart has its cause beside it, and a dot at each
 * bench run's median generation speed (on the generation scale).
 */
function changeMarks(changes: readonly HistoryChange[], benches: readonly HistorySession[]): (u: uPlot) => void {
  return (u) => {
    const ctx = u.ctx
    ctx.save()
    ctx.fillStyle = readToken(CHART_COLOR.tokens)
    for (const b of benches) {
      if (b.generationPerSecond === null) continue
      ctx.beginPath()
      ctx.arc(u.valToPos(b.startedAt / 1000, 'x', true), u.valToPos(b.generationPerSecond, 'y', true), 4, 0, 2 * Math.PI)
      ctx.fill()
    }
    ctx.strokeStyle = readToken('--chart-headroom')
    ctx.setLineDash([4, 4])
    for (const c of changes) {
      const x = u.valToPos(c.time / 1000, 'x', true)
      ctx.beginPath()
      ctx.moveTo(x, u.bbox.top)
      ctx.lineTo(x, u.bbox.top + u.bbox.height)
      ctx.stroke()
    }
    ctx.restore()
  }
}

function ProfileSpeed({
  overview,
  profileId,
  name,
}: {
  overview: HistoryOverview
  profileId: string | null
  name: string
}): React.JSX.Element {
  const history = useMemo(() => speedPerDay(overview.days, profileId), [overview, profileId])
  const changes = useMemo(() => overview.changes.filter((c) => c.profileId === profileId), [overview, profileId])
  const benches = useMemo(() => overview.benches.filter((b) => b.profileId === profileId), [overview, profileId])
  const draw = useMemo(() => changeMarks(changes, benches), [changes, benches])
  const extremes = slowestAndFastest(overview.days, profileId)
  const key = profileId ?? 'none'
  return (
    <section className="history-profile" aria-label={`Speed of ${name}`} data-testid={`history-speed-${key}`}>
      <UPlotChart
        title={`${name}: speed per day`}
        history={history}
        series={SPEED_SERIES}
        draw={draw}
        xLabels="day"
        testId={`history-speed-chart-${key}`}
      />
      {extremes && (
        <p className="note" data-testid={`history-extremes-${key}`}>
          Slowest day {extremes.slowest.day}: {extremes.slowest.generationPerSecond?.toFixed(1)} tok/s · fastest {extremes.fastest.day}:{' '}
          {extremes.fastest.generationPerSecond?.toFixed(1)} tok/s
        </p>
      )}
      {benches.length > 0 && (
        <p className="note" data-testid={`history-benches-${key}`}>
          {benches.length} bench run{benches.length === 1 ? '' : 's'} (dots), the last{' '}
          {benches[benches.length - 1]!.generationPerSecond?.toFixed(1) ?? '–'} tok/s.
        </p>
      )}
      {changes.length > 0 && (
        <ul className="history-changes" data-testid={`history-changes-${key}`}>
          {changes.map((c) => (
            <li key={`${c.time}-${c.what}`}>
              {new Date(c.time).toLocaleDateString('en-CA')}: {changeText(c)}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/**
 * The usage history (history.sqlite, kept across restarts): tokens per day, each profile's speed per day with
 * marks where the engine, the profile or the driver changed, the slowest and fastest days, and the export.
 */
export function HistoryView(): React.JSX.Element {
  const [overview, setOverview] = useState<HistoryOverview | null>(null)
  const [message, setMessage] = useState<Outcome | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    let live = true
    void historyOverview(DAYS).then((o) => live && setOverview(o))
    return () => {
      live = false
    }
  }, [])
  const tokens = useMemo(() => (overview ? tokensPerDay(overview.days) : null), [overview])
  const save = async (format: 'csv' | 'json' | 'md'): Promise<void> => {
    setBusy(true)
    setMessage(null)
    try {
      const r = await exportHistory(format)
      setMessage(!r.ok ? failedOutcome(r.error) : r.value === null ? null : { ok: true, text: `Saved ${r.value}.` })
    } finally {
      setBusy(false)
    }
  }
  if (!overview || !tokens) return <p className="note">Reading the usage history…</p>
  const empty = overview.days.length === 0
  return (
    <div className="history-view" data-testid="history-view">
      <h2>History</h2>
      <p data-testid="history-today">
        Today: {fmt(overview.today.generatedTokens)} tokens generated, {fmt(overview.today.promptTokens)} prompt tokens in{' '}
        {fmt(overview.today.requests)} request{overview.today.requests === 1 ? '' : 's'}.
      </p>
      {empty ? (
        <p className="note" data-testid="history-empty">
          No requests yet. Each request through Llama Tray&apos;s address will appear here: tokens per day and each profile&apos;s speed,
          kept across restarts.
        </p>
      ) : (
        <>
          <UPlotChart
            title={`Tokens per day (last ${DAYS} days)`}
            history={tokens}
            series={TOKEN_SERIES}
            xLabels="day"
            testId="history-tokens-chart"
          />
          {profilesOf(overview.days).map((p) => (
            <ProfileSpeed key={p.id ?? 'none'} overview={overview} profileId={p.id} name={p.name} />
          ))}
        </>
      )}
      <div className="row">
        {(['csv', 'json', 'md'] as const).map((f) => (
          <button key={f} type="button" onClick={() => void save(f)} disabled={busy || empty} data-testid={`history-export-${f}`}>
            Export {f === 'md' ? 'Markdown' : f.toUpperCase()}…
          </button>
        ))}
      </div>
      {message && <OutcomeView outcome={message} testId="history-message" />}
    </div>
  )
}
