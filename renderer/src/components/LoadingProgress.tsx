import { serverProgressSentence, type ServerLoadProgress, type ServerStatus } from '../../../app/contract/server-state'
import { formatElapsed } from '../lib/format'
import { loadEstimate } from '../lib/load-estimate'
import { loadPhase } from '../lib/log-lines'
import { useLogStore } from '../stores/log-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'
import { useNow } from './use-now'

/**
 * While the model loads: the server's own progress where it reports one (its
 * child channel: "Loading text model 42 %", also while a request wakes it);
 * otherwise the phase from the log, the elapsed time and, once this profile
 * has loaded before, a bar against its usual load time (from the core's load
 * history): minutes of waiting must never look frozen.
 */
export function LoadingProgress(): React.JSX.Element | null {
  const state = useStatusStore((s) => s.status?.state ?? null)
  const since = useStatusStore((s) => s.stateSince)
  const restartAt = useStatusStore((s) => (s.status?.state === 'backoff' ? s.status.restartAt : null))
  const reported = useStatusStore((s) => serverReported(s.status))
  const sentence = useStatusStore((s) => (s.status ? serverProgressSentence(s.status) : null))
  const loading = state === 'starting' || state === 'loading'
  const busy = loading || state === 'stopping' || state === 'backoff' || reported !== null
  const phase = useLogStore((s) => (loading ? loadPhase(s.lines) : null))
  const startedAt = useSnapshotStore((s) => (loading ? (s.snapshot?.load?.startedAt ?? null) : null))
  const expectedMs = useSnapshotStore((s) => (loading ? (s.snapshot?.load?.expectedMs ?? null) : null))
  const now = useNow(busy)
  if (!busy) return null
  if (state === 'backoff' && restartAt !== null) {
    return (
      <div className="progress" role="status">
        Restarting in {Math.max(0, Math.ceil((restartAt - now) / 1000))} s
      </div>
    )
  }
  if (state === 'stopping') {
    return (
      <div className="progress" role="status" data-testid="loading-progress">
        <span className="spinner" aria-hidden="true" />
        Stopping · {formatElapsed(now - since)}
      </div>
    )
  }
  if (reported && sentence) {
    // A wake's elapsed time would start at the sleep: only a load shows one.
    const elapsedMs = state === 'loading' ? now - (startedAt ?? since) : null
    return <ReportedProgress progress={reported} sentence={sentence} elapsedMs={elapsedMs} />
  }
  // The launch's own start (the core's clock) when known: starting → loading must not reset the bar.
  const estimate = loadEstimate(now - (startedAt ?? since), expectedMs, formatElapsed)
  const label = phase ?? (state === 'starting' ? 'starting llama-server' : 'loading the model')
  return (
    <div className="progress" role="status" data-testid="loading-progress">
      {estimate.fraction === null ? (
        <span className="spinner" aria-hidden="true" />
      ) : (
        <progress
          className="load-bar"
          max={1}
          value={estimate.fraction}
          aria-label="Loading progress against this profile's usual load time"
          data-testid="load-bar"
        />
      )}
      <span className={estimate.overdue ? 'overdue' : undefined}>
        {label} · {estimate.text}
      </span>
    </div>
  )
}

/** The progress the server itself reports: loading, or waking from sleep. */
function serverReported(status: ServerStatus | null): ServerLoadProgress | null {
  if (status?.state === 'loading') return status.progress ?? null
  if (status?.state === 'sleeping') return status.waking ?? null
  return null
}

function ReportedProgress(props: { progress: ServerLoadProgress; sentence: string; elapsedMs: number | null }): React.JSX.Element {
  const { progress, sentence, elapsedMs } = props
  return (
    <div className="progress" role="status" data-testid="loading-progress" data-source="server">
      {progress.value === null ? (
        <span className="spinner" aria-hidden="true" />
      ) : (
        <progress
          className="load-bar"
          max={1}
          value={progress.value}
          aria-label="Loading progress reported by llama-server"
          data-testid="load-bar"
        />
      )}
      <span>
        {sentence}
        {elapsedMs === null ? '' : ` · ${formatElapsed(elapsedMs)}`}
      </span>
    </div>
  )
}
