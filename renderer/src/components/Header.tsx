import type { ServerStateKind } from '../../../app/contract/server-state'
import { formatElapsed, formatPercent, formatRate } from '../lib/format'
import { loadPhase } from '../lib/log-lines'
import { useLogStore } from '../stores/log-store'
import { useProfileStore } from '../stores/profile-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'
import { useNow } from './use-now'
import { ServerAddress } from './ServerAddress'

const STATE_LABEL: Record<ServerStateKind, string> = {
  stopped: 'Stopped',
  starting: 'Starting',
  loading: 'Loading',
  ready: 'Ready',
  stopping: 'Stopping',
  backoff: 'Restarting',
  crashloop: 'Gave up',
  errored: 'Failed',
}

function StateBadge(): React.JSX.Element {
  const state = useStatusStore((s) => s.status?.state ?? null)
  return (
    <span className={`badge state-${state ?? 'unknown'}`} data-testid="server-state" data-state={state ?? ''}>
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

/** Elapsed time and phase while the model loads: minutes of waiting must never look frozen. */
function LoadingProgress(): React.JSX.Element | null {
  const state = useStatusStore((s) => s.status?.state ?? null)
  const since = useStatusStore((s) => s.stateSince)
  const restartAt = useStatusStore((s) => s.status?.restartAt ?? null)
  const busy = state === 'starting' || state === 'loading' || state === 'stopping' || state === 'backoff'
  const phase = useLogStore((s) => (state === 'loading' || state === 'starting' ? loadPhase(s.lines) : null))
  const now = useNow(busy)
  if (!busy) return null
  if (state === 'backoff' && restartAt !== null) {
    return <div className="progress" role="status">Restarting in {Math.max(0, Math.ceil((restartAt - now) / 1000))} s</div>
  }
  return (
    <div className="progress" role="status" data-testid="loading-progress">
      <span className="spinner" aria-hidden="true" />
      {state === 'stopping' ? 'Stopping' : (phase ?? (state === 'starting' ? 'starting llama-server' : 'loading the model'))} · {formatElapsed(now - since)}
    </div>
  )
}

function Failure(): React.JSX.Element | null {
  const state = useStatusStore((s) => s.status?.state ?? null)
  const exit = useStatusStore((s) => s.status?.lastExit ?? null)
  if (!exit?.reason || (state !== 'errored' && state !== 'crashloop' && state !== 'backoff' && state !== 'stopped')) return null
  return (
    <div className="failure" role="alert" data-testid="failure">
      <strong>{exit.reason}</strong>
      {exit.hint && <span className="hint"> {exit.hint}</span>}
    </div>
  )
}

function LiveRate(): React.JSX.Element {
  const rate = useSnapshotStore((s) => (s.snapshot?.server.state === 'ready' ? (s.snapshot.generation?.tokensPerSecond ?? null) : null))
  const active = useSnapshotStore((s) => s.snapshot?.generation?.active ?? false)
  return (
    <div className="big-rate" data-testid="live-rate" data-active={active ? 'true' : 'false'}>
      <span className="value">{formatRate(rate)}</span>
      <span className="unit">tok/s</span>
    </div>
  )
}

function LastRequest(): React.JSX.Element {
  const prompt = useSnapshotStore((s) => s.snapshot?.generation?.last?.promptTokensPerSecond ?? null)
  const gen = useSnapshotStore((s) => s.snapshot?.generation?.last?.predictedTokensPerSecond ?? null)
  const acceptance = useSnapshotStore((s) => s.snapshot?.generation?.last?.draftAcceptance ?? null)
  return (
    <dl className="last-request">
      <div>
        <dt>Last prompt</dt>
        <dd data-testid="last-prompt-rate">{formatRate(prompt)} tok/s</dd>
      </div>
      <div>
        <dt>Last generation</dt>
        <dd data-testid="last-gen-rate">{formatRate(gen)} tok/s</dd>
      </div>
      <div>
        <dt>Draft acceptance</dt>
        <dd data-testid="draft-acceptance">{formatPercent(acceptance)}</dd>
      </div>
    </dl>
  )
}

export function Header(): React.JSX.Element {
  return (
    <header className="header">
      <div className="header-status">
        <StateBadge />
        <ActiveProfile />
        <LoadingProgress />
      </div>
      <div className="header-figures">
        <LiveRate />
        <LastRequest />
      </div>
      <ServerAddress />
      <Failure />
    </header>
  )
}
