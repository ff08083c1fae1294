import { useState } from 'react'
import { switchNow as switchServerNow } from '../actions/server-actions'
import { useSnapshotStore } from '../stores/snapshot-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

/** A switch that waits for the running requests (or the running profile's minimum time): when, and "Switch now". */
export function PendingSwitchNote(): React.JSX.Element | null {
  const pending = useSnapshotStore((s) => s.snapshot?.pendingSwitch ?? null)
  const [error, setError] = useState<Problem | null>(null)
  if (!pending) return null
  const switchNow = async (): Promise<void> => {
    const result = await switchServerNow()
    setError(result.ok ? null : result.error)
  }
  return (
    <div className="note pending-switch-note" role="status" data-testid="pending-switch">
      <span>{pending.sentence}</span>{' '}
      <button type="button" onClick={() => void switchNow()}>
        Switch now
      </button>
      {error && <ProblemView problem={error} alert={false} />}
    </div>
  )
}
