import { useEffect, useState } from 'react'
import { mutedWarnings, unmuteWarning } from '../actions/warning-actions'
import { useSnapshotStore } from '../stores/snapshot-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

/** The profile's muted warnings, each one click from showing again. Re-read when the warnings change (a mute from the banner). */
export function MutedWarnings({ profileId }: { readonly profileId: string }): React.JSX.Element | null {
  const warningCount = useSnapshotStore((s) => s.snapshot?.warnings.length ?? 0)
  const [keys, setKeys] = useState<readonly string[]>([])
  const [error, setError] = useState<Problem | null>(null)
  useEffect(() => {
    let live = true
    void mutedWarnings(profileId).then((k) => live && setKeys(k))
    return () => {
      live = false
    }
  }, [profileId, warningCount])
  if (keys.length === 0) return null
  const unmute = async (key: string): Promise<void> => {
    const r = await unmuteWarning(profileId, key)
    if (r.ok) {
      setKeys(r.keys)
      setError(null)
    } else setError(r.error)
  }
  return (
    <section className="muted-warnings" aria-label="Muted warnings" data-testid="muted-warnings">
      <h3>Muted warnings</h3>
      <ul>
        {keys.map((k) => (
          <li key={k} data-testid="muted-warning" data-key={k}>
            <code>{k}</code>{' '}
            <button type="button" className="link" onClick={() => void unmute(k)} data-testid="unmute">
              Unmute
            </button>
          </li>
        ))}
      </ul>
      {error && <ProblemView problem={error} alert={false} />}
    </section>
  )
}
