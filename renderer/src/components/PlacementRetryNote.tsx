import { useState } from 'react'
import { setProfileSettings } from '../actions/profile-actions'
import { useSnapshotStore } from '../stores/snapshot-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

/**
 * The running server was started again with a safer placement after its load
 * ran out of GPU memory: what changed, and one click to keep it in the profile
 * (the profile itself is unchanged until then).
 */
export function PlacementRetryNote(): React.JSX.Element | null {
  const retry = useSnapshotStore((s) => s.snapshot?.placementRetry ?? null)
  const [kept, setKept] = useState<string | null>(null)
  const [error, setError] = useState<Problem | null>(null)
  if (!retry) return null
  const isKept = kept === retry.sentence
  const keep = async (): Promise<void> => {
    const result = await setProfileSettings(retry.profileId, retry.settings)
    if (result.ok) {
      setKept(retry.sentence)
      setError(null)
    } else setError(result.error)
  }
  return (
    <div className="note placement-retry-note" role="status" data-testid="placement-retry">
      <span>{retry.sentence}</span>{' '}
      {isKept ? (
        <span className="hint">Stored in the profile.</span>
      ) : (
        <button type="button" onClick={() => void keep()}>
          Keep in profile
        </button>
      )}
      {error && <ProblemView problem={error} alert={false} />}
    </div>
  )
}
