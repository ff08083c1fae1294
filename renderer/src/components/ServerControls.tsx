import { useState } from 'react'
import { api } from '../stores/api'
import { useStatusStore } from '../stores/status-store'

/** Stop and restart the running server (start and switch are per profile). */
export function ServerControls(): React.JSX.Element | null {
  const hasProcess = useStatusStore((s) => s.status !== null && s.status.state !== 'stopped' && s.status.state !== 'errored' && s.status.state !== 'crashloop')
  const canRestart = useStatusStore((s) => s.status?.profileId !== null && s.status?.profileId !== undefined)
  const [error, setError] = useState<string | null>(null)
  const restart = async (): Promise<void> => {
    setError(null)
    const r = await api().serverRestart()
    if (!r.ok) setError(r.error)
  }
  return (
    <div className="server-controls row">
      {hasProcess && (
        <button type="button" onClick={() => void api().serverStop()} data-testid="server-stop">
          Stop
        </button>
      )}
      {canRestart && (
        <button type="button" onClick={() => void restart()} data-testid="server-restart">
          Restart
        </button>
      )}
      {error && <span className="fix-error">{error}</span>}
    </div>
  )
}
