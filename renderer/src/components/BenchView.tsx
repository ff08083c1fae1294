import { BenchFlagFix } from './BenchFlagFix'
import { useEffect, useState } from 'react'
import type { BenchProgress, BenchReport } from '../../../app/contract/bench'
import { barWidths, benchTableRows } from '../lib/bench-table'
import { formatElapsed, formatEnergy, formatPercent } from '../lib/format'
import { cancelBench, refreshBenchHistory, showBenchReport, startBench, startTune, useBenchStore } from '../stores/bench-store'
import { ExportReport, TuneResults } from './BenchExtras'
import { useProfileStore } from '../stores/profile-store'
import { ProblemView } from './ProblemView'

const rate = (n: number | null): string => (n === null ? '—' : n.toFixed(1))
const times = (n: number | null): string => (n === null ? '' : `×${n.toFixed(2)}`)

function Progress({ progress }: { readonly progress: BenchProgress | null }): React.JSX.Element {
  if (!progress) return <p className="note">Starting…</p>
  return (
    <div className="bench-progress" role="status" data-testid="bench-progress" data-phase={progress.phase}>
      <progress max={Math.max(1, progress.totalSteps)} value={progress.step} />
      <span>
        step {progress.step}/{progress.totalSteps} · {progress.message}
      </span>
      <span className="note">
        {formatElapsed(progress.elapsedMs)} elapsed
        {progress.remainingMs === null ? '' : ` · about ${formatElapsed(progress.remainingMs)} left`}
      </span>
    </div>
  )
}

function Results({ report }: { readonly report: BenchReport }): React.JSX.Element {
  const rows = benchTableRows(report)
  const widths = barWidths(rows)
  return (
    <section className="bench-results" aria-label="Results" data-testid="bench-results">
      <p className="note">
        {report.kind} · {new Date(report.createdAt).toLocaleString()} · {report.config.runs} run(s) × {report.config.rounds} round(s),{' '}
        {report.config.tokens} tokens, sampling RNG {report.config.seed}; medians, × against the first profile
      </p>
      <div className="table-scroll">
        <table className="bench-table" data-testid="bench-table">
          <thead>
            <tr>
              <th scope="col">Profile</th>
              <th scope="col">Prompt</th>
              <th scope="col">Decode tok/s</th>
              <th scope="col">Prompt tok/s</th>
              <th scope="col" title="GPU energy per 1,000 generated tokens, where the GPU reports its power or energy">
                GPU energy /1k tok
              </th>
              <th scope="col">Draft accept</th>
              <th scope="col">Runs</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.key}
                data-testid="bench-row"
                data-profile-id={r.profileId}
                data-prompt={r.prompt}
                className={r.disturbedRuns > 0 ? 'disturbed' : undefined}
              >
                <th scope="row">{r.label}</th>
                <td>{r.prompt}</td>
                <td className="num" data-testid="bench-decode" data-value={r.tokensPerSecond ?? ''}>
                  {rate(r.tokensPerSecond)} <span className="ratio">{times(r.tokensPerSecondRatio)}</span>
                </td>
                <td className="num" data-testid="bench-prompt-rate">
                  {rate(r.promptTokensPerSecond)} <span className="ratio">{times(r.promptTokensPerSecondRatio)}</span>
                </td>
                <td className="num" data-testid="bench-energy">
                  {r.joulesPer1000Tokens === null ? 'n/a' : formatEnergy(r.joulesPer1000Tokens)}
                </td>
                <td className="num">{r.draftAcceptance === null ? '—' : formatPercent(r.draftAcceptance)}</td>
                <td className="num" title={r.disturbedReasons.join('; ') || undefined}>
                  {r.runs}
                  {r.disturbedRuns > 0 && <span className="disturbed-flag"> ⚠ {r.disturbedRuns} disturbed</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <figure className="bench-bars" aria-label="Generation tokens per second" data-testid="bench-bars">
        <figcaption>Generation tok/s</figcaption>
        {rows.map((r, i) => (
          <div key={r.key} className="bench-bar-row">
            <span className="bench-bar-label">
              {r.label} · {r.prompt}
            </span>
            <span className="bench-bar-track">
              <span className={r.disturbedRuns > 0 ? 'bench-bar disturbed' : 'bench-bar'} style={{ width: `${widths[i] ?? 0}%` }} />
            </span>
            <span className="num">{rate(r.tokensPerSecond)}</span>
          </div>
        ))}
      </figure>
      {report.tune && <TuneResults tune={report.tune} />}
      {report.file !== null && <ExportReport report={report} />}
      {report.notes.length > 0 && (
        <ul className="note">
          {report.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </section>
  )
}

function History({
  history,
  onShow,
}: {
  readonly history: readonly BenchReport[]
  readonly onShow: (r: BenchReport) => void
}): React.JSX.Element {
  if (history.length === 0) return <p className="note">No earlier benchmarks.</p>
  return (
    <ul className="bench-history" data-testid="bench-history">
      {history.map((r) => (
        <li key={`${r.createdAt}-${r.file ?? ''}`}>
          <button type="button" onClick={() => onShow(r)}>
            {new Date(r.createdAt).toLocaleString()} · {r.kind} ·{' '}
            {r.results.map((x) => `${x.label} ${rate(x.median.tokensPerSecond)} tok/s`).join(' vs ')}
          </button>
        </li>
      ))}
    </ul>
  )
}

/** The Bench view: pick profiles (the first is the baseline), runs and tokens; start, watch, cancel; the table, the bars, the history. */
export function BenchView(): React.JSX.Element {
  const profiles = useProfileStore((s) => s.summary?.profiles ?? null)
  const running = useBenchStore((s) => s.running)
  const progress = useBenchStore((s) => s.progress)
  const report = useBenchStore((s) => s.report)
  const error = useBenchStore((s) => s.error)
  const history = useBenchStore((s) => s.history)
  const [chosen, setChosen] = useState<readonly string[]>([])
  const [runs, setRuns] = useState('3')
  const [tokens, setTokens] = useState('128')
  const [formError, setFormError] = useState<string | null>(null)
  const [saveAs, setSaveAs] = useState('')

  useEffect(() => void refreshBenchHistory(), [])

  const toggle = (id: string, on: boolean): void => setChosen(on ? [...chosen.filter((c) => c !== id), id] : chosen.filter((c) => c !== id))
  /** The form's checked values, or null after showing what is wrong. */
  const checked = (): { ids: string[]; r: number; t: number } | null => {
    const r = Number(runs)
    const t = Number(tokens)
    const ids = chosen.filter((id) => profiles?.some((p) => p.id === id))
    if (ids.length === 0) return (setFormError('Choose at least one profile.'), null)
    if (!Number.isInteger(r) || r < 1) return (setFormError('Runs must be a whole number ≥ 1.'), null)
    if (!Number.isInteger(t) || t < 1) return (setFormError('Tokens must be a whole number ≥ 1.'), null)
    setFormError(null)
    return { ids, r, t }
  }
  const start = (e: React.FormEvent): void => {
    e.preventDefault()
    const c = checked()
    if (c) void startBench(c.ids, c.r, c.t)
  }
  const tune = (): void => {
    const c = checked()
    if (!c) return
    if (c.ids.length !== 1) return setFormError('Tune works on one profile: choose just one.')
    void startTune(c.ids[0] as string, c.r, c.t, saveAs.trim() === '' ? null : saveAs.trim())
  }

  return (
    <div className="bench-view">
      <form className="bench-form" onSubmit={start} aria-label="Benchmark">
        <fieldset>
          <legend>Profiles (the first one chosen is the baseline)</legend>
          {profiles?.length ? (
            profiles.map((p) => (
              <label key={p.id} className="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(p.id)}
                  onChange={(e) => toggle(p.id, e.target.checked)}
                  disabled={running}
                  data-testid="bench-profile"
                  data-profile-id={p.id}
                />
                {p.name}
                {chosen.indexOf(p.id) >= 0 && <span className="note"> #{chosen.indexOf(p.id) + 1}</span>}
              </label>
            ))
          ) : (
            <p className="note">No profiles yet.</p>
          )}
        </fieldset>
        <div className="row">
          <label>
            Runs per prompt{' '}
            <input
              value={runs}
              onChange={(e) => setRuns(e.target.value)}
              inputMode="numeric"
              size={4}
              disabled={running}
              data-testid="bench-runs"
            />
          </label>
          <label>
            Tokens{' '}
            <input
              value={tokens}
              onChange={(e) => setTokens(e.target.value)}
              inputMode="numeric"
              size={5}
              disabled={running}
              data-testid="bench-tokens"
            />
          </label>
          <button type="submit" className="primary" disabled={running} data-testid="bench-start">
            {chosen.length > 1 ? 'Compare' : 'Bench'}
          </button>
          <button
            type="button"
            onClick={tune}
            disabled={running || chosen.length !== 1}
            data-testid="bench-tune"
            title={
              "Sweep --n-cpu-moe around the fit's suggestion (and the draft on and off), skip settings that leave less than the VRAM " +
              'headroom free, and recommend the fastest'
            }
          >
            Tune --n-cpu-moe
          </button>
          <label>
            save as{' '}
            <input
              value={saveAs}
              onChange={(e) => setSaveAs(e.target.value)}
              placeholder="new profile name (optional)"
              size={18}
              disabled={running}
              data-testid="bench-tune-save"
            />
          </label>
          {running && (
            <button type="button" className="danger" onClick={() => void cancelBench()} data-testid="bench-cancel">
              Cancel
            </button>
          )}
        </div>
        {formError && <p className="fix-error">{formError}</p>}
      </form>
      {running && <Progress progress={progress} />}
      {error && !running && (
        <>
          <ProblemView problem={error} testId="bench-error" />
          <BenchFlagFix profileIds={chosen} error={error} />
        </>
      )}
      {report && <Results report={report} />}
      <h3>History</h3>
      <History history={history} onShow={showBenchReport} />
    </div>
  )
}
