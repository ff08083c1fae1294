import { sleepingSentence } from '../../../app/contract/server-state'
import { LoadingProgress } from '../components/LoadingProgress'
import { useProfileStore } from '../stores/profile-store'
import { useStatusStore } from '../stores/status-store'
import { STATE_LOOK } from './state-look'

/** The first line: a coloured dot, the state's icon and word, the profile; the load's bar below while it loads. */
export function PopoverState(): React.JSX.Element {
  const state = useStatusStore((s) => s.status?.state ?? null)
  const profileId = useStatusStore((s) => s.status?.profileId ?? null)
  const seconds = useStatusStore((s) => (s.status?.state === 'sleeping' ? s.status.sleepIdleSeconds : null))
  const name = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === profileId)?.name ?? null)
  const look = state ? STATE_LOOK[state] : null
  const Icon = look?.icon
  return (
    <header className="pop-state" data-testid="pop-state">
      <p className="pop-state-line">
        <span className={`pop-dot tone-${look?.tone ?? 'idle'}`} aria-hidden="true" />
        {Icon && <Icon className={`pop-state-icon tone-${look.tone}`} size={18} aria-hidden="true" focusable="false" />}
        <strong data-testid="server-state" data-state={state ?? ''}>
          {look?.label ?? 'Connecting…'}
        </strong>
        {profileId && (
          <span className="pop-profile" data-testid="active-profile" title={name ?? profileId}>
            {name ?? profileId}
          </span>
        )}
      </p>
      <LoadingProgress />
      {state === 'sleeping' && (
        <p className="pop-note" data-testid="sleeping-note">
          {sleepingSentence(seconds)}
        </p>
      )}
    </header>
  )
}
