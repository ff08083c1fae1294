import { useState } from 'react'
import type { ProfileSummary } from '../../../app/contract/profile'
import { isRunning } from '../../../app/contract/server-state'
import { baseName } from '../lib/format'
import { startServer, stopServer } from '../actions/server-actions'
import { setPinned } from '../actions/profile-actions'
import { useProfileStore } from '../stores/profile-store'
import { useHeaderShowsFailure } from './FailureNotice'
import { useStatusStore } from '../stores/status-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

function ProfileRow({
  profile,
  selected,
  onSelect,
  onStart,
  onPin,
  pending,
}: {
  readonly profile: ProfileSummary
  readonly selected: boolean
  readonly onSelect: () => void
  readonly onStart: () => void
  readonly onPin: () => void
  readonly pending: boolean
}): React.JSX.Element {
  const state = useStatusStore((s) => (s.status?.profileId === profile.id ? s.status.state : null))
  const running = state !== null && isRunning(state)
  const anyProcess = useStatusStore((s) => s.status?.pid !== null && s.status?.pid !== undefined)
  return (
    <li
      className={`profile-row${selected ? ' selected' : ''}${profile.active ? ' active' : ''}`}
      data-testid="profile-row"
      data-profile-id={profile.id}
    >
      <button type="button" className="profile-select" onClick={onSelect} aria-pressed={selected}>
        <span className="profile-title">{profile.name}</span>
        <span className="profile-model">
          {baseName(profile.model) || 'no model'}
          {profile.draftModel ? ` + ${baseName(profile.draftModel)}` : ''}
        </span>
      </button>
      <span className="profile-state" data-testid="profile-state">
        {pending ? 'switching…' : running || state === 'errored' || state === 'crashloop' ? state : ''}
      </span>
      {!profile.active && (
        <button type="button" onClick={onPin} aria-pressed={profile.pinned} data-testid="profile-pin" title="Run beside the active profile">
          {profile.pinned ? 'Pinned' : 'Pin'}
        </button>
      )}
      {running && !pending ? (
        <button type="button" onClick={() => void stopServer()} data-testid="profile-stop">
          Stop
        </button>
      ) : (
        <button type="button" className="primary" onClick={onStart} disabled={pending} data-testid="profile-start">
          {anyProcess ? 'Switch' : 'Start'}
        </button>
      )}
    </li>
  )
}

/** The profiles with one-click start/switch; the switch's progress is the pushed server state. */
export function ProfileList({
  selectedId,
  onSelect,
}: {
  readonly selectedId: string | null
  readonly onSelect: (id: string) => void
}): React.JSX.Element {
  const profiles = useProfileStore((s) => s.summary?.profiles ?? null)
  const messages = useProfileStore((s) => s.summary?.messages ?? null)
  const [pending, setPending] = useState<string | null>(null)
  const [error, setError] = useState<Problem | null>(null)
  const refusedHere = useHeaderShowsFailure()
  const start = async (id: string): Promise<void> => {
    setPending(id)
    setError(null)
    try {
      const r = await startServer(id)
      if (!r.ok) setError(r.error)
    } finally {
      setPending(null)
    }
  }
  const pin = async (p: ProfileSummary): Promise<void> => {
    setError(null)
    const r = await setPinned(p.id, !p.pinned)
    if (!r.ok) setError(r.error)
  }
  if (!profiles) return <p className="note">Loading profiles…</p>
  return (
    <div className="profile-list">
      {messages && messages.length > 0 && (
        <ul className="notes">
          {messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {profiles.length === 0 && (
        <p className="note">No profiles yet: find llama-server and models above, or import a llama-server command below.</p>
      )}
      <ul>
        {profiles.map((p) => (
          <ProfileRow
            key={p.id}
            profile={p}
            selected={p.id === selectedId}
            pending={pending === p.id}
            onSelect={() => onSelect(p.id)}
            onStart={() => void start(p.id)}
            onPin={() => void pin(p)}
          />
        ))}
      </ul>
      {/* A refused start is said in the header (with its fix); only a failure the header cannot know is said here. */}
      {error && !refusedHere && <ProblemView problem={error} testId="start-error" />}
    </div>
  )
}
