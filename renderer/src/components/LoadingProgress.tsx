import { formatElapsed } from '../lib/format'
import { loadPhase } from '../lib/log-lines'
import { useLogStore } from '../stores/log-store'
import { useStatusStore } from '../stores/status-store'
import { useNow } from './use-now'

/** Elapsed time and phase while the model loads: minutes of waiting must never look frozen. */
export function LoadingProgress(): React.JSX.Element | null {
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
