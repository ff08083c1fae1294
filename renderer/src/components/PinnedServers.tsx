import { pinnedFigures } from '../../../app/contract/pinned-figures'
import type { PinnedServerView } from '../../../app/contract/snapshot'
import { useSnapshotStore } from '../stores/snapshot-store'

const EMPTY: readonly PinnedServerView[] = []

/** The pinned profiles' servers, one compact row each (name, state, port, its own figures), under the active one's figures. */
export function PinnedServers(): React.JSX.Element | null {
  const pinned = useSnapshotStore((s) => s.snapshot?.pinned ?? EMPTY)
  if (pinned.length === 0) return null
  return (
    <section className="pinned-servers" aria-label="Pinned profiles" data-testid="pinned-servers">
      <h3>Pinned beside it</h3>
      <ul>
        {pinned.map((p) => (
          <li key={p.profileId} className="pinned-server" data-testid="pinned-server" data-profile-id={p.profileId}>
            <span className="profile-title">{p.name}</span>
            <span className="profile-state">{p.state}</span>
            <span className="pinned-port">{p.port === null ? '' : `127.0.0.1:${p.port}`}</span>
            <span className="pinned-figures" data-testid="pinned-figures" title={p.restarts > 0 ? p.lastExit?.sentence : undefined}>
              {pinnedFigures(p)}
            </span>
            {p.lastExit && p.state !== 'ready' && <span className="fix-error">{p.lastExit.sentence}</span>}
          </li>
        ))}
      </ul>
    </section>
  )
}
