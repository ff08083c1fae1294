import { useState } from 'react'
import { applyWarningFix } from '../actions/warning-actions'
import { advisorListFindings } from '../lib/banner-warnings'
import { useSnapshotStore } from '../stores/snapshot-store'

/** The profile's advisor list: its info-level findings (tips), which are never banners; each with its fix where it has one. */
export function AdvisorNotes({ profileId }: { readonly profileId: string }): React.JSX.Element | null {
  const all = useSnapshotStore((s) => s.snapshot?.warnings ?? null)
  const [said, setSaid] = useState<string | null>(null)
  const notes = all ? advisorListFindings(all, profileId) : []
  if (notes.length === 0 && said === null) return null
  return (
    <section className="section advisor-notes" aria-label="Advisor notes" data-testid="advisor-notes">
      <h3>Advisor notes</h3>
      <ul>
        {notes.map((w) => (
          <li key={w.id} data-testid="advisor-note" data-warning-id={w.id}>
            {w.headline}
            {w.reason && <span className="warning-rest"> {w.reason}</span>}{' '}
            {w.fix && (
              <button type="button" onClick={() => void applyWarningFix(w).then((r) => setSaid(r.text))}>
                {w.fix.label}
              </button>
            )}
          </li>
        ))}
      </ul>
      {said && <p className="hint">{said}</p>}
    </section>
  )
}
