import { useState } from 'react'
import type { Warning } from '../../../app/contract/warnings'
import { api } from '../stores/api'
import { useSnapshotStore } from '../stores/snapshot-store'

const EMPTY: readonly Warning[] = []

interface FixResult {
  readonly ok: boolean
  readonly text: string
}

function WarningItem({ warning, onResult }: { readonly warning: Warning; readonly onResult: (r: FixResult) => void }): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  const apply = async (): Promise<void> => {
    setBusy(true)
    try {
      const r = await api().warningsApplyFix(warning.id)
      onResult(r.ok ? { ok: true, text: `Applied to “${r.value.name}”. Restart the profile to use it.` } : { ok: false, text: r.error })
    } finally {
      setBusy(false)
    }
  }
  const mute = async (): Promise<void> => {
    setBusy(true)
    try {
      const r = await api().warningsMute(warning.id)
      onResult(r.ok ? { ok: true, text: 'Muted for this profile. Unmute it under Profiles → Muted warnings.' } : { ok: false, text: r.error })
    } finally {
      setBusy(false)
    }
  }
  const fix = warning.fix
  const mutable = warning.profileId !== undefined && warning.profileId !== null && warning.profileId !== 'none'
  return (
    <li className={`warning level-${warning.level}`} data-testid="warning" data-warning-id={warning.id}>
      <span className="warning-message">{warning.message}</span>
      {fix && (
        <span className="warning-fix">
          <code title={`removes ${fix.removeArgs.join(' ') || 'nothing'}, adds ${fix.addArgs.join(' ') || 'nothing'}`}>
            {fix.addArgs.length > 0 ? fix.addArgs.join(' ') : `remove ${fix.removeArgs.join(' ')}`}
          </code>
          <button type="button" onClick={() => void apply()} disabled={busy} data-testid="warning-fix">
            {busy ? 'Applying…' : fix.label}
          </button>
        </span>
      )}
      {mutable && (
        <button type="button" className="link warning-mute" onClick={() => void mute()} disabled={busy} data-testid="warning-mute" title="Don't show this warning again for this profile">
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
