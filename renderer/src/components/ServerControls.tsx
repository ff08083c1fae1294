import { useState } from 'react'
import { isRunning } from '../../../app/contract/server-state'
import { restartServer, startServer, stopServer } from '../actions/server-actions'
import { useProfileStore } from '../stores/profile-store'
import { useStatusStore } from '../stores/status-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'
import { useHeaderShowsFailure } from './FailureNotice'

/** Start when stopped (the last or active profile), Stop and Restart when running. */
export function ServerControls(): React.JSX.Element | null {
  const state = useStatusStore((s) => s.status?.state ?? null)
  const lastProfile = useStatusStore((s) => s.status?.profileId ?? null)
  const fallback = useProfileStore((s) => s.summary?.activeProfileId ?? s.summary?.profiles[0]?.id ?? null)
  const profileName = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === (lastProfile ?? fallback))?.name ?? null)
  const [error, setError] = useState<Problem | null>(null)
  const [busy, setBusy] = useState(false)
  const saidInHeader = useHeaderShowsFailure()
  if (state === null) return null
  const profileId = lastProfile ?? fallback
  const run = async (action: () => Promise<{ ok: true } | { ok: false; error: Problem }>): Promise<void> => {
    setError(null)
    setBusy(true)
    try {
      const r = await action()
      if (!r.ok) setError(r.error)
    } finally {
      setBusy(false)
    }
  }
  // A process runs or is about to (a restart is pending): Stop and Restart apply.
  const running = isRunning(state)
  return (
    <div className="server-controls row">
      {running && (
        <>
          <button type="button" onClick={() => void stopServer()} data-testid="server-stop">
            Stop
          </button>
          <button type="button" onClick={() => void run(restartServer)} disabled={busy} data-testid="server-restart">
            Restart
          </button>
        </>
      )}
      {!running && state !== 'stopping' && profileId !== null && (
        <button
          type="button"
          className="primary"
          onClick={() => void run(() => startServer(profileId))}
          disabled={busy}
          data-testid="server-start"
          title={profileName ? `Start “${profileName}”` : undefined}
        >
          Start
        </button>
      )}
      {error && !saidInHeader && <ProblemView problem={error} testId="server-control-error" />}
    </div>
  )
}
