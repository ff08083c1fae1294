import { useState } from 'react'
import type { Warning } from '../../../app/contract/warnings'
import { type ActionResult, applyWarningFix, applyWarningFixAndRestart, muteWarning } from '../actions/warning-actions'
import { bannerWarnings, foldedLabel } from '../lib/banner-warnings'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'
import { SERVER_FAILED_RULE } from './FailureNotice'
import { ProblemView } from './ProblemView'
import { FixCost, FixLabel, WarningWordsView } from './WarningWords'

const EMPTY: readonly Warning[] = []
/** The header says a failed launch, with its fix: the banner does not repeat it. */
const SAID_IN_HEADER: ReadonlySet<string> = new Set([SERVER_FAILED_RULE])

/** One warning: its headline, the reason behind "Why", its fix and Mute. */
export function WarningItem({
  warning,
  onResult,
}: {
  readonly warning: Warning
  readonly onResult: (r: ActionResult) => void
}): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  // A fix to the profile that runs now takes effect only when the server starts again with it.
  const runningProfile = useStatusStore((s) => (s.status && s.status.pid !== null ? s.status.profileId : null))
  const run = async (action: (w: Warning) => Promise<ActionResult>): Promise<void> => {
    setBusy(true)
    try {
      onResult(await action(warning))
    } finally {
      setBusy(false)
    }
  }
  const fix = warning.fix
  const mutable = warning.profileId !== undefined && warning.profileId !== null && warning.profileId !== 'none'
  const running = runningProfile !== null && warning.profileId === runningProfile
  // The label names the flag ("Use -lm none"); the exact change is the button's tooltip, so the flag shows once.
  const change = fix ? `Removes ${fix.removeArgs.join(' ') || 'nothing'}, adds ${fix.addArgs.join(' ') || 'nothing'}.` : undefined
  return (
    <li
      className={`warning level-${warning.level}`}
      data-testid="warning"
      data-warning-id={warning.id}
      data-applies-after-restart={warning.appliesAfterRestart ? 'true' : undefined}
    >
      {/* One sentence in view; the measurement behind it one click away. */}
      <WarningWordsView words={warning} className="warning-message" />
      {warning.appliesAfterRestart && (
        <span className="warning-fix">
          <span className="badge pending" data-testid="applies-after-restart">
            Applies after restart
          </span>
          {warning.profileId && (
            <button type="button" onClick={() => void run(applyWarningFixAndRestart)} disabled={busy} data-testid="warning-restart">
              {busy ? 'Restarting…' : 'Restart now'}
            </button>
          )}
        </span>
      )}
      {fix && (
        <span className="warning-fix">
          {running ? (
            <>
              <span className="warning-fix-label">
                <FixLabel label={fix.label} />
              </span>
              <FixCost fix={fix} />
              <button
                type="button"
                className="primary"
                onClick={() => void run(applyWarningFixAndRestart)}
                disabled={busy}
                title={change}
                data-testid="warning-fix-restart"
              >
                {busy ? 'Restarting…' : 'Apply and restart'}
              </button>
              <button
                type="button"
                onClick={() => void run(applyWarningFix)}
                disabled={busy}
                title={`${change} The server runs the old settings until it restarts.`}
                data-testid="warning-fix"
              >
                Apply later
              </button>
            </>
          ) : (
            <>
              <button type="button" onClick={() => void run(applyWarningFix)} disabled={busy} title={change} data-testid="warning-fix">
                {busy ? 'Applying…' : <FixLabel label={fix.label} />}
              </button>
              <FixCost fix={fix} />
            </>
          )}
        </span>
      )}
      {mutable && !warning.appliesAfterRestart && (
        <button
          type="button"
          className="link warning-mute"
          onClick={() => void run(muteWarning)}
          disabled={busy}
          data-testid="warning-mute"
          title="Don't show this warning again for this profile"
        >
          Mute
        </button>
      )}
    </li>
  )
}

/**
 * One warning at a time: the most severe in full with its fix, the others
 * folded into "2 more"; info-level findings stay in the profile's advisor list.
 */
export function WarningsBanner(): React.JSX.Element | null {
  const warnings = useSnapshotStore((s) => s.snapshot?.warnings ?? EMPTY)
  // Kept here, not in the item: a fixed warning disappears, its result must not.
  const [result, setResult] = useState<ActionResult | null>(null)
  const [unfolded, setUnfolded] = useState(false)
  const { first, folded, foldedCounts } = bannerWarnings(warnings, SAID_IN_HEADER)
  if (!first && !result) return null
  return (
    <section className="warnings" aria-label="Warnings" aria-live="polite">
      {first && (
        <ul>
          <WarningItem key={first.id} warning={first} onResult={setResult} />
          {unfolded && folded.map((w) => <WarningItem key={w.id} warning={w} onResult={setResult} />)}
        </ul>
      )}
      {folded.length > 0 && (
        <button
          type="button"
          className="link warnings-more"
          aria-expanded={unfolded}
          onClick={() => setUnfolded(!unfolded)}
          data-testid="warnings-more"
        >
          {unfolded ? 'Show one' : foldedLabel(foldedCounts)}
        </button>
      )}
      {result?.ok && (
        <p className="fix-ok" role="status" data-testid="warning-fix-result">
          {result.text}{' '}
          <button type="button" className="link" onClick={() => setResult(null)} aria-label="Dismiss">
            ✕
          </button>
        </p>
      )}
      {result && !result.ok && (
        <ProblemView problem={result.problem} testId="warning-fix-result" alert={false}>
          <button type="button" className="link" onClick={() => setResult(null)} aria-label="Dismiss">
            ✕
          </button>
        </ProblemView>
      )}
    </section>
  )
}
