import { useState } from 'react'
import type { BenchReport, TuneSummary } from '../../../app/contract/bench'
import { exportBenchReport } from '../stores/bench-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

const rate = (n: number | null): string => (n === null ? '—' : n.toFixed(1))
const STATUS: Readonly<Record<string, string>> = { benched: 'benched', 'skipped-vram': 'skipped: too little VRAM free', failed: 'failed' }

/** A tune's sweep: every --n-cpu-moe (and draft) setting tried, why the skipped ones were, and the recommendation. */
export function TuneResults({ tune }: { readonly tune: TuneSummary }): React.JSX.Element {
  const rec = tune.recommended
  return (
    <section className="tune-results" aria-label="Tune" data-testid="tune-results">
      <p>
        {rec ? (
          <>
            Fastest that keeps {tune.headroomMiB} MiB free:{' '}
            <strong data-testid="tune-recommended" data-n-cpu-moe={rec.nCpuMoe} data-draft={rec.draft}>
              --n-cpu-moe {rec.nCpuMoe}
              {rec.draft ? ' with the draft' : ' without the draft'}
            </strong>{' '}
            at {rate(rec.tokensPerSecond)} tok/s.
          </>
        ) : (
          'No setting kept the headroom free.'
        )}{' '}
        {tune.fitSuggestion !== null && (
          <span className="note">
            The fit suggested --n-cpu-moe {tune.fitSuggestion} for {tune.idleFreeVramMiB} MiB free
            {tune.fitRuntimeMiB !== null ? `, counting ${tune.fitRuntimeMiB} MiB of CUDA runtime` : ''}.
          </span>
        )}
        {tune.savedProfileId && <span data-testid="tune-saved"> Saved as profile “{tune.savedProfileId}”.</span>}
      </p>
      <table className="bench-table" data-testid="tune-table">
        <thead>
          <tr>
            <th scope="col">--n-cpu-moe</th>
            <th scope="col">Draft</th>
            <th scope="col">Result</th>
            <th scope="col">Min free VRAM</th>
            <th scope="col">Decode tok/s</th>
          </tr>
        </thead>
        <tbody>
          {tune.candidates.map((c) => (
            <tr key={`${c.nCpuMoe}-${c.draft}`} data-testid="tune-row" data-status={c.status} data-n-cpu-moe={c.nCpuMoe}>
              <td className="num">{c.nCpuMoe}</td>
              <td>{c.draft ? 'on' : 'off'}</td>
              <td title={c.reason ?? undefined}>{STATUS[c.status] ?? c.status}</td>
              <td className="num">{c.minFreeVramMiB === null ? '—' : `${c.minFreeVramMiB} MiB`}</td>
              <td className="num">{rate(c.tokensPerSecond)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** The report as Markdown (for an issue or a forum post, like the seeds' tables) or CSV, made by main from the stored file. */
export function ExportReport({ report }: { readonly report: BenchReport }): React.JSX.Element {
  const [text, setText] = useState<string | null>(null)
  const [error, setError] = useState<Problem | null>(null)
  const [copied, setCopied] = useState(false)
  const load = async (format: 'markdown' | 'csv'): Promise<void> => {
    const r = await exportBenchReport(report.createdAt, format)
    setCopied(false)
    if (r.ok) {
      setText(r.value)
      setError(null)
    } else setError(r.error)
  }
  const copy = async (): Promise<void> => {
    if (text === null) return
    await navigator.clipboard?.writeText(text)
    setCopied(true)
  }
  return (
    <div className="bench-export">
      <div className="row">
        <button type="button" onClick={() => void load('markdown')} data-testid="bench-export-markdown">
          Markdown
        </button>
        <button type="button" onClick={() => void load('csv')} data-testid="bench-export-csv">
          CSV
        </button>
        {text !== null && (
          <button type="button" onClick={() => void copy()} data-testid="bench-export-copy">
            {copied ? 'Copied' : 'Copy'}
          </button>
        )}
      </div>
      {error && <ProblemView problem={error} alert={false} />}
      {text !== null && <textarea className="exported" readOnly value={text} rows={6} data-testid="bench-exported" />}
    </div>
  )
}
