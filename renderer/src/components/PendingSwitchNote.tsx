import { useState } from 'react'
import { keepRunning, switchNow as switchServerNow } from '../actions/server-actions'
import { useProfileStore } from '../stores/profile-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

/**
 * A switch that waits for the running requests (or the running profile's minimum time): when, "Switch now", and
 * "Keep" the running profile, which withdraws it.
 */
export function PendingSwitchNote(): React.JSX.Element | null {
  const pending = useSnapshotStore((s) => s.snapshot?.pendingSwitch ?? null)
  const runningName = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === pending?.fromProfileId)?.name ?? null)
  const [error, setError] = useState<Problem | null>(null)
  if (!pending) return null
  const settle = (result: { ok: true } | { ok: false; error: Problem }): void => setError(result.ok ? null : result.error)
  return (
    <div className="note pending-switch-note" role="status" data-testid="pending-switch">
      <span>{pending.sentence}</span>{' '}
      <button type="button" onClick={() => void switchServerNow().then(settle)}>
        Switch now
      </button>{' '}
      <button type="button" onClick={() => void keepRunning(pending.fromProfileId).then(settle)} data-testid="keep-running">
        Keep {runningName ?? pending.fromProfileId}
      </button>
      {error && <ProblemView problem={error} alert={false} />}
    </div>
  )
}
