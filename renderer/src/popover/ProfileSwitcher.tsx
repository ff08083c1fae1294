import { useState } from 'react'
import { CircleCheck, CircleX, LayoutDashboard, Play, Square } from 'lucide-react'
import { isRunning, type ServerStateKind } from '../../../app/contract/server-state'
import { keepRunning, startServer, stopServer, switchNow } from '../actions/server-actions'
import { openDashboard } from '../actions/window-actions'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from '../components/ProblemView'
import { useProfileStore } from '../stores/profile-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'

const FAILED_STATES: ReadonlySet<ServerStateKind> = new Set(['errored', 'crashloop'])

/**
 * The profiles as a radio list (the one that runs, or would start, is marked
 * "active") and the buttons under it: picking a profile only selects it (arrow
 * keys move through a radio group, they must not switch the server at each
 * step); the button then says what happens: Start it, Switch to it, or Stop.
 */
export function ProfileSwitcher(): React.JSX.Element {
  const profiles = useProfileStore((s) => s.summary?.profiles ?? null)
  const storeActive = useProfileStore((s) => s.summary?.activeProfileId ?? null)
  const state = useStatusStore((s) => s.status?.state ?? null)
  const statusProfile = useStatusStore((s) => s.status?.profileId ?? null)
  const pendingSwitch = useSnapshotStore((s) => s.snapshot?.pendingSwitch ?? null)
  const [picked, setPicked] = useState<string | null>(null)
  const [error, setError] = useState<Problem | null>(null)
  const [busy, setBusy] = useState(false)
  const running = state !== null && isRunning(state)
  // A profile whose start failed is not active: it is marked failed (the notice above says why).
  const failed = state !== null && FAILED_STATES.has(state)
  const active = statusProfile ?? storeActive ?? profiles?.[0]?.id ?? null
  // A pick that no longer exists (deleted elsewhere) falls back to the active profile.
  const selected = picked !== null && profiles?.some((p) => p.id === picked) ? picked : active
  const selectedName = profiles?.find((p) => p.id === selected)?.name ?? selected
  /** Runs a control; its refusal (one sentence from main) shows under the buttons. */
  const act = async (action: () => Promise<Problem | null>): Promise<void> => {
    setError(null)
    setBusy(true)
    try {
      setError(await action())
    } finally {
      setBusy(false)
    }
  }
  const start = async (id: string): Promise<Problem | null> => {
    const r = await startServer(id)
    return r.ok ? null : r.error
  }
  const switchAtOnce = async (): Promise<Problem | null> => {
    const r = await switchNow()
    return r.ok ? null : r.error
  }
  const keep = async (runningId: string): Promise<Problem | null> => {
    const r = await keepRunning(runningId)
    return r.ok ? null : r.error
  }
  const stop = async (): Promise<Problem | null> => {
    await stopServer()
    return null
  }
  return (
    <section className="pop-profiles" aria-label="Profiles">
      {profiles && profiles.length > 0 ? (
        <fieldset className="pop-radio-list" data-testid="pop-profiles">
          <legend>Profile</legend>
          {profiles.map((p) => (
            <label key={p.id} className={p.id === active && !failed ? 'pop-radio active' : 'pop-radio'} data-testid={`pop-profile-${p.id}`}>
              <input type="radio" name="profile" value={p.id} checked={p.id === selected} onChange={() => setPicked(p.id)} />
              <span className="pop-radio-name">{p.name}</span>
              {p.id === active &&
                (failed ? (
                  <span className="pop-active-mark failed" data-testid="pop-failed-mark">
                    <CircleX size={14} aria-hidden="true" focusable="false" />
                    failed
                  </span>
                ) : (
                  <span className="pop-active-mark">
                    <CircleCheck size={14} aria-hidden="true" focusable="false" />
                    active
                  </span>
                ))}
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="pop-note">
          {profiles ? 'No profile yet: open the dashboard to create one from a model on this computer.' : 'Loading profiles…'}
        </p>
      )}
      <div className="pop-actions">
        {selected !== null && (!running || selected !== active) && state !== 'stopping' && (
          // While a switch waits, another pick may replace it (the last choice wins), so the button stays enabled.
          <button
            type="button"
            className="primary"
            disabled={busy && pendingSwitch === null}
            onClick={() => void act(() => start(selected))}
            data-testid="pop-start"
          >
            <Play size={14} aria-hidden="true" focusable="false" />
            {running ? 'Switch' : 'Start'}
            <span className="visually-hidden"> {selectedName}</span>
          </button>
        )}
        {running && (
          <button type="button" disabled={busy} onClick={() => void act(stop)} data-testid="pop-stop">
            <Square size={14} aria-hidden="true" focusable="false" />
            Stop
          </button>
        )}
        <button type="button" className="pop-open" onClick={() => void openDashboard()} data-testid="pop-open-dashboard">
          <LayoutDashboard size={14} aria-hidden="true" focusable="false" />
          Open dashboard
        </button>
      </div>
      {pendingSwitch && (
        <p className="pop-note" role="status" data-testid="pop-pending-switch">
          {pendingSwitch.sentence}{' '}
          <button type="button" onClick={() => void act(switchAtOnce)} data-testid="pop-switch-now">
            Switch now
          </button>{' '}
          <button type="button" onClick={() => void act(() => keep(pendingSwitch.fromProfileId))} data-testid="pop-keep-running">
            Keep {profiles?.find((p) => p.id === pendingSwitch.fromProfileId)?.name ?? pendingSwitch.fromProfileId}
          </button>
        </p>
      )}
      {error && <ProblemView problem={error} testId="pop-control-error" />}
    </section>
  )
}
