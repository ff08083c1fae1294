import { useState } from 'react'
import type { Warning } from '../../../app/contract/warnings'
import { type ActionResult, applyWarningFix, muteWarning } from '../actions/warning-actions'
import { splitFirstSentence } from '../lib/sentences'
import { useSnapshotStore } from '../stores/snapshot-store'

const EMPTY: readonly Warning[] = []

type FixResult = ActionResult

function WarningItem({ warning, onResult }: { readonly warning: Warning; readonly onResult: (r: FixResult) => void }): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  const [why, setWhy] = useState(false)
  const run = async (action: (id: string) => Promise<FixResult>): Promise<void> => {
    setBusy(true)
    try {
      onResult(await action(warning.id))
    } finally {
      setBusy(false)
    }
  }
  // One sentence in view; the measurement behind it one click away.
  const { first, rest } = splitFirstSentence(warning.message)
  const fix = warning.fix
  const mutable = warning.profileId !== undefined && warning.profileId !== null && warning.profileId !== 'none'
  return (
    <li className={`warning level-${warning.level}`} data-testid="warning" data-warning-id={warning.id}>
      <span className="warning-message">
        {first}
        {rest && (
          <>
            {' '}
            <button type="button" className="link" aria-expanded={why} onClick={() => setWhy(!why)} data-testid="warning-why">
              {why ? 'Less' : 'Why'}
            </button>
            {why && <span className="warning-rest"> {rest}</span>}
          </>
        )}
      </span>
      {fix && (
        <span className="warning-fix">
          <code title={`removes ${fix.removeArgs.join(' ') || 'nothing'}, adds ${fix.addArgs.join(' ') || 'nothing'}`}>
            {fix.addArgs.length > 0 ? fix.addArgs.join(' ') : `remove ${fix.removeArgs.join(' ')}`}
          </code>
          <button type="button" onClick={() => void run(applyWarningFix)} disabled={busy} data-testid="warning-fix">
            {busy ? 'Applying…' : fix.label}
          </button>
        </span>
      )}
      {mutable && (
        <button type="button" className="link warning-mute" onClick={() => void run(muteWarning)} disabled={busy} data-testid="warning-mute" title="Don't show this warning again for this profile">
          Mute
        </button>
      )}
    </li>
  )
}

/** Each active warning with its reason and, where there is one, its one-click fix. */
export function WarningsBanner(): React.JSX.Element | null {
  const warnings = useSnapshotStore((s) => s.snapshot?.warnings ?? EMPTY)
  // Kept here, not in the item: a fixed warning disappears, its result must not.
  const [result, setResult] = useState<FixResult | null>(null)
  if (warnings.length === 0 && !result) return null
  return (
    <section className="warnings" aria-label="Warnings" aria-live="polite">
      {warnings.length > 0 && (
        <ul>
          {warnings.map((w) => (
            <WarningItem key={w.id} warning={w} onResult={setResult} />
          ))}
        </ul>
      )}
      {result && (
        <p className={result.ok ? 'fix-ok' : 'fix-error'} role="status" data-testid="warning-fix-result">
          {result.text}{' '}
          <button type="button" className="link" onClick={() => setResult(null)} aria-label="Dismiss">
            ✕
          </button>
        </p>
      )}
    </section>
  )
}
