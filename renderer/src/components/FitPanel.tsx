import { failedOutcome, type Outcome } from '../lib/outcome'
import { OutcomeView } from './OutcomeView'
import { useCallback, useEffect, useState } from 'react'
import type { Result } from '../../../app/contract/commands'
import type { FitDeviceMemory, FitEstimate, LlamaFitComparison } from '../../../app/contract/fit'
import { applyNCpuMoe, askLlamaFit, estimateFit } from '../actions/fit-actions'
import { useProfileStore } from '../stores/profile-store'
import { useSettingsStore } from '../stores/settings-store'
import { useStatusStore } from '../stores/status-store'
import { rejectionProblem } from '../lib/rejection-problem'
import { ProblemView } from './ProblemView'

const mib = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : n.toFixed(n >= 100 ? 0 : 1))

const PARTS: readonly { readonly key: keyof FitDeviceMemory; readonly label: string }[] = [
  { key: 'weightsMiB', label: 'Weights' },
  { key: 'kvMiB', label: 'KV cache' },
  { key: 'recurrentMiB', label: 'Recurrent state' },
  { key: 'computeMiB', label: 'Compute buffers' },
  { key: 'totalMiB', label: 'Total' },
]

function Breakdown({ estimate }: { readonly estimate: FitEstimate }): React.JSX.Element {
  const { report } = estimate
  const draft = report.draft
  return (
    <table className="fit-table" data-testid="fit-breakdown">
      <thead>
        <tr>
          <th scope="col">MiB</th>
          <th scope="col">GPU</th>
          <th scope="col">Host</th>
          {draft && <th scope="col">Draft GPU</th>}
          {draft && <th scope="col">Draft host</th>}
        </tr>
      </thead>
      <tbody>
        {PARTS.map((p) => (
          <tr key={p.key} className={p.key === 'totalMiB' ? 'total' : undefined} data-testid={`fit-row-${p.key}`}>
            <th scope="row">{p.label}</th>
            <td>{mib(report.gpu[p.key])}</td>
            <td>{mib(report.host[p.key])}</td>
            {draft && <td>{mib(draft.gpu[p.key])}</td>}
            {draft && <td>{mib(draft.host[p.key])}</td>}
          </tr>
        ))}
        {report.gpuRuntimeMiB > 0 && (
          <tr data-testid="fit-row-runtime">
            <th
              scope="row"
              title={
                'GPU memory the server holds beyond its buffers: CUDA context, cuBLAS, memory pools. Learned from this GPU after a ' +
                'launch; until then the figure measured on an H200.'
              }
            >
              CUDA runtime{' '}
              {report.gpuRuntimeSource === 'measured' ? '(this GPU)' : report.gpuRuntimeSource === 'default' ? '(default)' : ''}
            </th>
            <td>{mib(report.gpuRuntimeMiB)}</td>
            <td />
            {draft && <td />}
            {draft && <td />}
          </tr>
        )}
      </tbody>
    </table>
  )
}

/** GPU total (model plus draft plus the CUDA runtime) as a bar against the budget (free VRAM minus headroom). */
function BudgetBar({ estimate }: { readonly estimate: FitEstimate }): React.JSX.Element {
  const { report, freeVramMiB } = estimate
  const gpu = report.gpuProcessMiB
  if (report.budgetMiB === null || freeVramMiB === null) {
    return (
      <p className="note" data-testid="fit-budget">
        GPU total {mib(gpu)} MiB. No GPU data: an estimate without a budget.
      </p>
    )
  }
  if (report.budgetMiB <= 0) {
    // No budget at all: a negative figure would read as a fault of the profile, not of the free memory.
    return (
      <p className="note" data-testid="fit-budget">
        GPU total {mib(gpu)} MiB. Only {mib(freeVramMiB)} MiB of VRAM is free now, less than the {report.headroomMiB} MiB headroom: close
        other GPU apps, or lower the headroom in Settings.
      </p>
    )
  }
  const scale = Math.max(freeVramMiB, gpu, 1)
  return (
    <div className="fit-budget" data-testid="fit-budget">
      <p>
        GPU total <strong>{mib(gpu)} MiB</strong> {report.fits ? 'fits' : 'does not fit'} the budget of{' '}
        <strong>{mib(report.budgetMiB)} MiB</strong> ({mib(freeVramMiB)} MiB free − {report.headroomMiB} MiB headroom)
      </p>
      <div className="fit-bar" role="img" aria-label={`GPU total ${mib(gpu)} MiB of ${mib(freeVramMiB)} MiB free`}>
        <span className={report.fits ? 'fit-used' : 'fit-used over'} style={{ width: `${Math.min(100, (gpu / scale) * 100)}%` }} />
        <span
          className="fit-headroom"
          style={{ left: `${Math.min(100, (Math.max(0, report.budgetMiB) / scale) * 100)}%` }}
          title="budget (headroom starts here)"
        />
      </div>
    </div>
  )
}

/** The fit panel: the selected profile's VRAM breakdown and the suggested --n-cpu-moe, one click to apply. */
/** "Ask llama.cpp's own fit": its plan for the same profile and headroom, beside ours (a dry run of a few seconds). */
function LlamaFit({ profileId }: { readonly profileId: string }): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  const [answer, setAnswer] = useState<Result<LlamaFitComparison> | null>(null)
  useEffect(() => setAnswer(null), [profileId])
  const ask = async (): Promise<void> => {
    setBusy(true)
    try {
      setAnswer(await askLlamaFit(profileId))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="llama-fit" data-testid="llama-fit">
      <button type="button" onClick={() => void ask()} disabled={busy} data-testid="llama-fit-ask">
        {busy ? 'Asking llama.cpp…' : "Compare with llama.cpp's own fit"}
      </button>
      {answer && !answer.ok && <ProblemView problem={answer.error} testId="llama-fit-error" alert={false} />}
      {answer?.ok && (
        <ul className="fit-notes" data-testid="llama-fit-lines" data-outcome={answer.value.plan.outcome}>
          {answer.value.lines.map((l) => (
            <li key={l}>{l.trim()}</li>
          ))}
        </ul>
      )}
    </div>
  )
}

export function FitPanel({ profileId }: { readonly profileId: string }): React.JSX.Element {
  const updatedAt = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === profileId)?.updatedAt ?? null)
  const serverState = useStatusStore((s) => s.status?.state ?? null)
  const headroom = useSettingsStore((s) => s.settings?.vramHeadroomMiB ?? null)
  const [result, setResult] = useState<Result<FitEstimate> | null>(null)
  const [current, setCurrent] = useState<number | null>(null)
  const [message, setMessage] = useState<Outcome | null>(null)

  const load = useCallback(
    async (isLive: () => boolean = () => true) => {
      const { result: r, nCpuMoe } = await estimateFit(profileId)
      if (!isLive()) return
      setResult(r)
      setCurrent(nCpuMoe)
    },
    [profileId],
  )

  useEffect(() => {
    let live = true
    load(() => live).catch((err: unknown) => live && setResult({ ok: false, error: rejectionProblem(err) }))
    return () => {
      live = false
    }
  }, [load, updatedAt, serverState, headroom])

  const apply = async (n: number): Promise<void> => {
    const r = await applyNCpuMoe(profileId, n)
    setMessage(r.ok ? { ok: true, text: `Saved --n-cpu-moe ${n}.` } : failedOutcome(r.error))
    if (r.ok) await load()
  }

  if (!result) return <section className="fit-panel">Estimating…</section>
  if (!result.ok) {
    return (
      <section className="fit-panel" aria-label="VRAM fit">
        <h3>VRAM fit</h3>
        <ProblemView problem={result.error} testId="fit-error" alert={false} />
      </section>
    )
  }
  const estimate = result.value
  const { report } = estimate
  const suggested = report.budgetMiB === null ? null : report.nCpuMoe
  return (
    <section className="fit-panel" aria-label="VRAM fit" data-testid="fit-panel">
      <div className="row">
        <h3>VRAM fit</h3>
        <span className="note">
          ctx {report.placement.ctx}, {report.placement.parallel} slot(s), KV {report.placement.cacheTypeK}/{report.placement.cacheTypeV}
        </span>
        <button type="button" onClick={() => void load()} data-testid="fit-refresh">
          Refresh
        </button>
      </div>
      <Breakdown estimate={estimate} />
      <BudgetBar estimate={estimate} />
      {suggested !== null && (
        <p className="row" data-testid="fit-suggestion" data-n-cpu-moe={suggested}>
          Suggested <code>--n-cpu-moe {suggested}</code>
          {report.fits === false && ' (the closest; it still does not fit)'}
          {current === suggested ? (
            <span className="note"> (the profile has it)</span>
          ) : (
            <button type="button" className="primary" onClick={() => void apply(suggested)} data-testid="fit-apply">
              Apply (now {current ?? 0})
            </button>
          )}
        </p>
      )}
      {estimate.measuredServerGpuMiB !== null && (
        <p data-testid="fit-measured">
          Estimated {mib(report.gpuProcessMiB)} MiB vs measured {mib(estimate.measuredServerGpuMiB)} MiB on the GPU.
        </p>
      )}
      {message && <OutcomeView outcome={message} testId="fit-message" />}
      <LlamaFit profileId={profileId} />
      {report.notes.length > 0 && (
        <ul className="fit-notes">
          {report.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </section>
  )
}
