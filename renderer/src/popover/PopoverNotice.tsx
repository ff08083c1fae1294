import { useState } from 'react'
import { TriangleAlert } from 'lucide-react'
import { applyWarningFix, type ActionResult } from '../actions/warning-actions'
import { warningText, type Warning } from '../../../app/contract/warnings'
import { openDashboard } from '../actions/window-actions'
import type { Problem } from '../../../app/contract/problem'
import { OutcomeView } from '../components/OutcomeView'
import { ProblemView } from '../components/ProblemView'
import { mostSevereWarning } from '../lib/popover-picks'
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
 * most severe warning as its headline with its one-click fix (the whole warning in its tooltip).
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
      {warning && <PopoverWarning warning={warning} busy={busy} onFix={() => void apply(warning)} />}
      {result && <OutcomeView outcome={result} testId="warning-fix-result" />}
    </section>
  )
}

/** A warning in the popover's little room: its headline in view, the whole of it in the tooltip, and its fix. */
export function PopoverWarning({
  warning,
  busy,
  onFix,
}: {
  readonly warning: Warning
  readonly busy: boolean
  readonly onFix: () => void
}): React.JSX.Element {
  return (
    <div className="pop-warning" data-testid="warning" data-warning-id={warning.id}>
      <TriangleAlert className="pop-notice-icon" size={16} aria-hidden="true" focusable="false" />
      <p className="pop-warning-text" title={warningText(warning)}>
        {warning.headline}
      </p>
      {warning.fix && (
        <button type="button" onClick={onFix} disabled={busy} data-testid="warning-fix">
          {busy ? 'Applying…' : warning.fix.label}
        </button>
      )}
    </div>
  )
}
