import { useState } from 'react'
import type { Warning } from '../../../app/contract/warnings'
import { type ActionResult, applyWarningFix } from '../actions/warning-actions'

/** "1 warning:" / "2 warnings:", what follows "Saved." when the advisor found something in what was stored. */
export function findingsLead(findings: readonly Warning[]): string | null {
  return findings.length === 0 ? null : `${findings.length} warning${findings.length === 1 ? '' : 's'}:`
}

/**
 * The advisor's warnings on what a save stored, told once beside Save, each with its fix as a button; they never blocked the save.
 * A fix applied says so and its warning goes (the editor reloads the changed profile).
 */
export function SaveFindings({
  findings,
  onResult,
}: {
  readonly findings: readonly Warning[]
  readonly onResult: (r: ActionResult, fixed: Warning) => void
}): React.JSX.Element | null {
  const [busy, setBusy] = useState<string | null>(null)
  if (findings.length === 0) return null
  const fix = async (w: Warning): Promise<void> => {
    setBusy(w.id)
    try {
      onResult(await applyWarningFix(w), w)
    } finally {
      setBusy(null)
    }
  }
  return (
    <ul className="save-findings" data-testid="save-findings">
      {findings.map((w) => (
        <li key={w.id} className={`warning level-${w.level}`} data-testid="save-finding" data-warning-id={w.id}>
          <span className="warning-message" title={w.reason || undefined}>
            {w.headline}
          </span>
          {w.fix && (
            <button
              type="button"
              disabled={busy !== null}
              onClick={() => void fix(w)}
              title={`Removes ${w.fix.removeArgs.join(' ') || 'nothing'}, adds ${w.fix.addArgs.join(' ') || 'nothing'}.`}
              data-testid="save-finding-fix"
            >
              {w.fix.label}
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}
