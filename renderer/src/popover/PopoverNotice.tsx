import { useState } from 'react'
import { TriangleAlert } from 'lucide-react'
import { applyWarningFix, type ActionResult } from '../actions/warning-actions'
import type { Warning } from '../../../app/contract/warnings'
import { openDashboard } from '../actions/window-actions'
import type { Problem } from '../../../app/contract/problem'
import { OutcomeView } from '../components/OutcomeView'
import { ProblemView } from '../components/ProblemView'
import { mostSevereWarning } from '../lib/popover-picks'
import { splitFirstSentence } from '../lib/sentences'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'

/** A failure: its cause and fix in one sentence each, the rest (the log lines) in the dashboard. */
function FailureNotice({ failure }: { readonly failure: Problem }): React.JSX.Element {
  const { details: _inTheDashboard, ...short } = failure
  return (
    <div className="pop-notice tone-fault" data-testid="pop-failure">
      <ProblemView problem={short} testId="failure" />
      <button type="button" onClick={() => void openDashboard()} data-testid="pop-failure-fix">
        Fix in the dashboard
      </button>
    </div>
  )
}

/**
 * The one thing to act on: a failure when the server ended with one, else the
 * most severe warning as its first sentence with its one-click fix.
 */
export function PopoverNotice(): React.JSX.Element | null {
  const state = useStatusStore((s) => s.status?.state ?? null)
  const failure = useStatusStore((s) => s.status?.lastExit?.problem ?? null)
  const warning = useSnapshotStore((s) => mostSevereWarning(s.snapshot?.warnings ?? []))
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ActionResult | null>(null)
  const failed = state === 'errored' || state === 'crashloop' || state === 'backoff'
  if (failed && failure) return <FailureNotice failure={failure} />
  if (!warning && !result) return null
  const fix = warning?.fix
  const apply = async (w: Warning): Promise<void> => {
    setBusy(true)
    try {
      setResult(await applyWarningFix(w))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className={`pop-notice tone-${warning?.level === 'error' ? 'fault' : 'attention'}`} aria-label="Warning" aria-live="polite">
      {warning && (
        <div className="pop-warning" data-testid="warning" data-warning-id={warning.id}>
          <TriangleAlert className="pop-notice-icon" size={16} aria-hidden="true" focusable="false" />
          <p className="pop-warning-text" title={warning.message}>
            {splitFirstSentence(warning.message).first}
          </p>
          {fix && (
            <button type="button" onClick={() => void apply(warning)} disabled={busy} data-testid="warning-fix">
              {busy ? 'Applying…' : fix.label}
            </button>
          )}
        </div>
      )}
      {result && <OutcomeView outcome={result} testId="warning-fix-result" />}
    </section>
  )
}
