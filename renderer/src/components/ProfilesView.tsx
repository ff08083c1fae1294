import { useEffect, useRef, useState } from 'react'
import { undoDeleteProfile } from '../actions/profile-actions'
import { useProfileStore } from '../stores/profile-store'
import { DiscoverProfile } from './DiscoverProfile'
import { ImportProfile } from './ImportProfile'
import { ProfileEditor } from './ProfileEditor'
import { ProfileList } from './ProfileList'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

const UNDO_MS = 15_000

interface Deleted {
  readonly id: string
  readonly name: string
}

export function ProfilesView(): React.JSX.Element {
  const activeId = useProfileStore((s) => s.summary?.activeProfileId ?? null)
  const firstId = useProfileStore((s) => s.summary?.profiles[0]?.id ?? null)
  const profiles = useProfileStore((s) => s.summary?.profiles ?? null)
  const [selected, setSelected] = useState<string | null>(null)
  const [deleted, setDeleted] = useState<Deleted | null>(null)
  const [error, setError] = useState<Problem | null>(null)
  const undoTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const current = selected !== null && profiles?.some((p) => p.id === selected) ? selected : (activeId ?? firstId)

  useEffect(() => () => void (undoTimer.current && clearTimeout(undoTimer.current)), [])

  const onDeleted = (id: string, name: string): void => {
    setDeleted({ id, name })
    setSelected(null)
    if (undoTimer.current) clearTimeout(undoTimer.current)
    undoTimer.current = setTimeout(() => setDeleted(null), UNDO_MS)
  }
  const undo = async (): Promise<void> => {
    if (!deleted) return
    const r = await undoDeleteProfile(deleted.id)
    if (!r.ok) return setError(r.error)
    setDeleted(null)
    setSelected(r.value.id)
  }

  return (
    <div className="profiles-view">
      <div className="profiles-side">
        <h2>Profiles</h2>
        {/* One instance whatever the count, so "Created … Start" survives the first profile appearing. */}
        <DiscoverProfile prominent={profiles?.length === 0} onCreated={setSelected} />
        <ProfileList selectedId={current} onSelect={setSelected} />
        {deleted && (
          <p className="undo" role="status" data-testid="undo-delete">
            Deleted “{deleted.name}”.{' '}
            <button type="button" onClick={() => void undo()}>
              Undo
            </button>
          </p>
        )}
        {error && <ProblemView problem={error} alert={false} />}
        <ImportProfile onImported={setSelected} />
      </div>
      {current && (
        <div className="profile-detail">
          <ProfileEditor key={current} profileId={current} onSelect={setSelected} onDeleted={onDeleted} />
        </div>
      )}
    </div>
  )
}
