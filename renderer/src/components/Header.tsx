import { downloadingSentence, sleepingSentence, type ServerStateKind } from '../../../app/contract/server-state'
import { formatRate } from '../lib/format'
import { useProfileStore } from '../stores/profile-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'
import { FailureNotice } from './FailureNotice'
import { LoadingProgress } from './LoadingProgress'
import { PlacementRetryNote } from './PlacementRetryNote'
import { PendingSwitchNote } from './PendingSwitchNote'
import { SavedNotRunningNote } from './SavedNotRunningNote'
import { GameNote } from './GameNote'
import { ServerAddress } from './ServerAddress'
import { ServerControls } from './ServerControls'

const STATE_LABEL: Record<ServerStateKind, string> = {
  stopped: 'Stopped',
  starting: 'Starting',
  downloading: 'Downloading',
  loading: 'Loading',
  ready: 'Running',
  sleeping: 'Sleeping',
  stopping: 'Stopping',
  backoff: 'Restarting',
  crashloop: 'Gave up',
  errored: 'Failed',
}

/** A shape per state beside its colour, so the state reads without colour too (lucide-react could not be installed here). */
const STATE_ICON: Record<ServerStateKind, string> = {
  stopped: '■',
  starting: '◔',
  downloading: '↓',
  loading: '◔',
  ready: '●',
  sleeping: '☾',
  stopping: '◼',
  backoff: '↻',
  crashloop: '✕',
  errored: '✕',
}

function StateBadge(): React.JSX.Element {
  const state = useStatusStore((s) => s.status?.state ?? null)
  return (
    <span className={`badge state-${state ?? 'unknown'}`} data-testid="server-state" data-state={state ?? ''}>
      <span className="state-icon" aria-hidden="true">
        {state ? STATE_ICON[state] : '…'}
      </span>{' '}
      {state ? STATE_LABEL[state] : 'Connecting…'}
    </span>
  )
}

function ActiveProfile(): React.JSX.Element | null {
  const profileId = useStatusStore((s) => s.status?.profileId ?? null)
  const name = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === profileId)?.name ?? null)
  if (!profileId) return null
  return (
    <span className="profile-name" data-testid="active-profile" title={profileId}>
      {name ?? profileId}
    </span>
  )
}

/** A sleeping server is calm, not a fault: what it means, in one line. */
function SleepingNote(): React.JSX.Element | null {
  const sleeping = useStatusStore((s) => s.status?.state === 'sleeping')
  const seconds = useStatusStore((s) => (s.status?.state === 'sleeping' ? s.status.sleepIdleSeconds : null))
  if (!sleeping) return null
  return (
    <div className="note sleeping-note" data-testid="sleeping-note">
      {sleepingSentence(seconds)}
    </div>
  )
}

/** A -hf launch fetching its model: what, how far, how fast. */
function DownloadingNote(): React.JSX.Element | null {
  const downloading = useStatusStore((s) => s.status?.state === 'downloading')
  const download = useStatusStore((s) => (s.status?.state === 'downloading' ? s.status.download : null))
  if (!downloading) return null
  const pct = download?.total ? Math.min(100, (download.bytes / download.total) * 100) : null
  return (
    <div className="note downloading-note" data-testid="downloading-note">
      {downloadingSentence(download)}
      {pct !== null ? <progress max={100} value={pct} aria-label="Download progress" /> : null}
    </div>
  )
}

/**
 * Live generation speed and, beside it, this profile's usual figure (the
 * rolling median). "—" when no server runs and "idle" when it waits for a
 * request: never a 0.0 that looks like a broken server.
 */
function LiveRate(): React.JSX.Element {
  const ready = useSnapshotStore((s) => s.snapshot?.server.state === 'ready')
  const asleep = useSnapshotStore((s) => s.snapshot?.server.state === 'sleeping')
  const rate = useSnapshotStore((s) => (s.snapshot?.server.state === 'ready' ? (s.snapshot.generation?.tokensPerSecond ?? null) : null))
  const active = useSnapshotStore((s) => s.snapshot?.generation?.active ?? false)
  const usual = useSnapshotStore((s) =>
    s.snapshot?.server.state === 'ready' ? (s.snapshot.generation?.rolling?.medianTokensPerSecond ?? null) : null,
  )
  const generating = ready && active && rate !== null
  return (
    <div className="big-rate" role="group" data-testid="live-rate" data-active={active ? 'true' : 'false'} aria-label="Generation speed">
      {/* Stopped: no figure at all (a lone "—" up here reads as a window control). */}
      {(generating || ready || asleep) && (
        <span className={generating ? 'value' : 'value quiet'}>{generating ? formatRate(rate) : ready ? 'idle' : 'asleep'}</span>
      )}
      {generating && <span className="unit">tok/s</span>}
      {usual !== null && (
        <span className="usual" data-testid="usual-rate">
          usual {formatRate(usual)} tok/s
        </span>
      )}
    </div>
  )
}

export function Header(): React.JSX.Element {
  return (
    <header className="header">
      <div className="header-status">
        <StateBadge />
        <ActiveProfile />
        <ServerControls />
      </div>
      <div className="header-figures">
        <LiveRate />
      </div>
      <LoadingProgress />
      <PlacementRetryNote />
      <SavedNotRunningNote />
      <GameNote />
      <PendingSwitchNote />
      <ServerAddress />
      <SleepingNote />
      <DownloadingNote />
      <FailureNotice />
    </header>
  )
}
