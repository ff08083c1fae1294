import { useState } from 'react'
import { problem as toProblem, type Problem } from '../../../app/contract/problem'
import { runProblemFix } from '../actions/problem-actions'

/**
 * Every failure as the dashboard shows it: the problem's sentence, its fix as a button when one click can help,
 * and the raw details (a tool's own words, log lines) folded behind "Details". A fix that fails shows its own problem.
 */
export function ProblemView({
  problem,
  testId,
  alert = true,
  children,
}: {
  readonly problem: Problem
  readonly testId?: string
  readonly alert?: boolean
  /** Buttons of the view's own (FailureNotice's "… and start"), shown beside the fix. */
  readonly children?: React.ReactNode
}): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  const [fixProblem, setFixProblem] = useState<Problem | null>(null)
  const fix = problem.fix
  const run = async (): Promise<void> => {
    if (!fix) return
    setBusy(true)
    setFixProblem(null)
    try {
      const r = await runProblemFix(fix.run)
      if (!r.ok) setFixProblem(r.error)
    } catch (err) {
      setFixProblem(toProblem('internal', `The fix did not run: ${err instanceof Error ? err.message : String(err)}`))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="error-line" role={alert ? 'alert' : undefined} data-testid={testId} data-problem-kind={problem.kind}>
      <p className="error-text">
        <strong className="error-cause">{problem.sentence}</strong>
      </p>
      {(fix || children) && (
        <div className="error-actions">
          {fix && (
            <button type="button" onClick={() => void run()} disabled={busy} data-testid="problem-fix" title={fix.cli ?? undefined}>
              {busy ? 'Working…' : fix.label}
            </button>
          )}
          {children}
        </div>
      )}
      {problem.details && (
        <details className="error-details">
          <summary>Details</summary>
          <pre>{problem.details}</pre>
        </details>
      )}
      {fixProblem && <ProblemView problem={fixProblem} testId={testId ? `${testId}-fix` : undefined} />}
    </div>
  )
}
