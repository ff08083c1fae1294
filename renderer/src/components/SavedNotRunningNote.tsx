import { useState } from 'react'
import { startServer } from '../actions/server-actions'
import type { Problem } from '../../../app/contract/problem'
import { useSnapshotStore } from '../stores/snapshot-store'
import { ProblemView } from './ProblemView'

/**
 * The running profile was saved with settings its server does not run yet: they apply after a restart, and
 * "Apply and restart" starts it again with them (the core says so until the new settings run).
 */
export function SavedNotRunningNote(): React.JSX.Element | null {
  const profileId = useSnapshotStore((s) => s.snapshot?.savedNotRunning?.profileId ?? null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<Problem | null>(null)
  if (profileId === null) return null
  const restart = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    try {
      const r = await startServer(profileId)
      if (!r.ok) setError(r.error)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="note saved-not-running" role="status" data-testid="saved-not-running">
      <span>Saved. Applies after restart.</span>{' '}
      <button type="button" onClick={() => void restart()} disabled={busy} data-testid="apply-and-restart">
        {busy ? 'Restarting…' : 'Apply and restart'}
      </button>
      {error && <ProblemView problem={error} alert={false} />}
    </div>
  )
}
