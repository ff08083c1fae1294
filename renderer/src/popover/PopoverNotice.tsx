import { useState } from 'react'
import { TriangleAlert } from 'lucide-react'
import { applyWarningFix, type ActionResult } from '../actions/warning-actions'
import type { Warning } from '../../../app/contract/warnings'
import { FailureNotice, useHeaderShowsFailure } from '../components/FailureNotice'
import { OutcomeView } from '../components/OutcomeView'
import { FixCost, FixLabel, WarningWordsView } from '../components/WarningWords'
import { mostSevereWarning } from '../lib/popover-picks'
import { useSnapshotStore } from '../stores/snapshot-store'

/**
 * The one thing to act on: the header's failure (a start or switch that failed, with the same sentence and
 * button), else the most severe warning as its headline (its reason behind "Why?") with its one-click fix.
 */
export function PopoverNotice(): React.JSX.Element | null {
  const failed = useHeaderShowsFailure()
  const warning = useSnapshotStore((s) => mostSevereWarning(s.snapshot?.warnings ?? []))
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ActionResult | null>(null)
  if (failed)
    return (
      <div className="pop-notice tone-fault" data-testid="pop-failure">
        {/* The log lines are the dashboard's (Open dashboard, below): the popover has room for the sentence and its fix. */}
        <FailureNotice details={false} />
      </div>
    )
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

/** A warning in the popover's little room: its headline in view, its reason behind "Why?" (the banner's toggle), and its fix. */
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
      <WarningWordsView words={warning} className="pop-warning-text" />
      {warning.fix && (
        <div className="pop-warning-fix">
          <button type="button" onClick={onFix} disabled={busy} data-testid="warning-fix">
            {busy ? 'Applying…' : <FixLabel label={warning.fix.label} />}
          </button>
          <FixCost fix={warning.fix} />
        </div>
      )}
    </div>
  )
}
