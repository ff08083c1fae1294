import { failedOutcome, type Outcome } from '../lib/outcome'
import { OutcomeView } from './OutcomeView'
import { useEffect, useState } from 'react'
import {
  BACKEND_CHOICES,
  backendLabel,
  type BackendChoice,
  type EngineInstallProgress,
  type EngineInstallResult,
  type EngineListing,
  type EngineUpdateCheck,
  type EngineUpdateReport,
} from '../../../app/contract/engines'
import {
  checkEngineUpdate,
  engineUpdateNotice,
  installEngine,
  listEngines,
  onEngineProgress,
  removeEngine,
  rollbackProfileEngine,
  updateProfileEngine,
} from '../actions/engine-actions'
import { useProfileStore } from '../stores/profile-store'

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`
const choiceLabel = (c: BackendChoice): string =>
  c === 'auto' ? 'Automatic (from the NVIDIA driver; Vulkan or CPU without one)' : backendLabel(c)

function progressText(p: EngineInstallProgress): string {
  if (p.phase === 'download')
    return `Downloading ${p.asset ?? ''}: ${mb(p.bytes ?? 0)}${p.total ? ` of ${mb(p.total)}` : ''}${p.rateBps ? ` (${mb(p.rateBps)}/s)` : ''}`
  if (p.phase === 'extract') return `Extracting ${p.asset ?? ''}`
  if (p.phase === 'verify') return 'Checking that llama-server runs'
  if (p.phase === 'check') return 'Checking that llama-server computes on this GPU'
  if (p.phase === 'release') return 'Reading the latest llama.cpp release'
  return 'Done'
}

/** Settings → llama.cpp engines: install the release for this machine, list and remove installed engines, check for a newer release. */
export function EnginesSection(): React.JSX.Element {
  const [listing, setListing] = useState<EngineListing | null>(null)
  const [backend, setBackend] = useState<BackendChoice>('auto')
  const [progress, setProgress] = useState<EngineInstallProgress | null>(null)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<Outcome | null>(null)
  const [notice, setNotice] = useState<EngineUpdateCheck | null>(null)
  const [report, setReport] = useState<EngineUpdateReport | null>(null)
  const summary = useProfileStore((s) => s.summary)
  const [updateProfile, setUpdateProfile] = useState('')

  const refresh = async (): Promise<void> => {
    const r = await listEngines()
    if (r.ok) setListing(r.value)
    else setMessage(failedOutcome(r.error))
    setNotice(await engineUpdateNotice())
  }
  useEffect(() => {
    void refresh()
    return onEngineProgress(setProgress)
  }, [])
  // The profiles an update can move: those on an engine installed here.
  const updatable = (summary?.profiles ?? []).filter((p) => listing?.installed.some((e) => e.usedBy.some((u) => u.id === p.id)))
  const chosen = updatable.find((p) => p.id === updateProfile) ?? updatable[0]

  const tryUpdate = async (): Promise<void> => {
    if (!chosen) return
    setBusy(true)
    setMessage(null)
    setReport(null)
    try {
      const r = await updateProfileEngine(chosen.id)
      if (r.ok) setReport(r.value)
      else setMessage(failedOutcome(r.error))
      await refresh()
    } finally {
      setBusy(false)
      setProgress(null)
    }
  }
  const rollback = async (profileId: string): Promise<void> => {
    const r = await rollbackProfileEngine(profileId)
    setReport(null)
    setMessage(r.ok ? { ok: true, text: `Rolled back: the profile runs ${r.value.binary} again.` } : failedOutcome(r.error))
    await refresh()
  }

  const install = async (): Promise<void> => {
    setBusy(true)
    setMessage(null)
    setProgress(null)
    try {
      const r = await installEngine(backend)
      // A fallback's sentence (a better build failed the GPU check) says what was installed and why.
      const installed = (v: EngineInstallResult): string =>
        `${v.alreadyInstalled ? 'Already installed' : 'Installed'}: ${v.id} (llama.cpp ${v.tag}, ${backendLabel(v.backend)}).`
      setMessage(r.ok ? { ok: true, text: r.value.notice ?? installed(r.value) } : failedOutcome(r.error))
      await refresh()
    } finally {
      setBusy(false)
      setProgress(null)
    }
  }
  const remove = async (id: string): Promise<void> => {
    setMessage(null)
    const r = await removeEngine(id)
    setMessage(r.ok ? { ok: true, text: `Removed ${id} (${mb(r.value.sizeBytes)} freed).` } : failedOutcome(r.error))
    await refresh()
  }
  const check = async (): Promise<void> => {
    setMessage(null)
    const r = await checkEngineUpdate()
    if (!r.ok) return setMessage(failedOutcome(r.error))
    const c = r.value
    setMessage({
      ok: true,
      text:
        c.installed === null
          ? `The latest llama.cpp is ${c.latest.tag}; none is installed here yet.`
          : c.newer
            ? `llama.cpp ${c.latest.tag} is out (installed: ${c.installed}).`
            : `Up to date: ${c.installed} is the latest release.`,
    })
  }

  return (
    <section className="engines-section" aria-labelledby="engines-heading" data-testid="engines-section">
      <h2 id="engines-heading">llama.cpp engines</h2>
      <p className="note">
        Downloads llama.cpp’s own release from GitHub for this computer, checks its sha256 and that it runs; binaries you installed yourself
        stay as they are.
      </p>
      {notice?.newer && (
        <div className="engine-notice" role="status" data-testid="engine-update-notice">
          <p>
            llama.cpp {notice.latest.tag} is out (installed: {notice.installed}). Trying it benches a profile on the old and the new engine
            first; the profile moves only if the new one loads and is not slower.
          </p>
          {chosen ? (
            <div className="row">
              <label>
                Profile
                <select
                  value={chosen.id}
                  onChange={(e) => setUpdateProfile(e.target.value)}
                  disabled={busy}
                  data-testid="engine-update-profile"
                >
                  {updatable.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="primary" onClick={() => void tryUpdate()} disabled={busy} data-testid="engine-update">
                {busy ? 'Benchmarking…' : `Try ${notice.latest.tag}`}
              </button>
            </div>
          ) : (
            <p className="note">No profile runs an engine installed here yet.</p>
          )}
        </div>
      )}
      {report && (
        <div role="status" data-testid="engine-update-report" className={report.adopted ? 'fix-ok' : 'fix-error'}>
          <p>{report.summary}</p>
          {report.adopted && (
            <button type="button" onClick={() => void rollback(report.profileId)} data-testid="engine-rollback">
              Roll back
            </button>
          )}
        </div>
      )}
      <h3>Installed by Llama Tray</h3>
      {listing === null ? (
        <p className="note">Loading…</p>
      ) : listing.installed.length === 0 ? (
        <p className="note" data-testid="engines-none">
          None yet.
        </p>
      ) : (
        <ul className="engine-list">
          {listing.installed.map((e) => (
            <li key={e.id} data-testid="engine-row" data-id={e.id}>
              <span>
                <strong>{e.id}</strong> · llama.cpp {e.tag} · {backendLabel(e.backend)} · {mb(e.sizeBytes)}
                {e.usedBy.length > 0 ? ` · used by ${e.usedBy.map((p) => p.name).join(', ')}` : ' · not used by a profile'}
                <br />
                <small className="note">{e.path}</small>
              </span>
              <button type="button" onClick={() => void remove(e.id)} data-testid="engine-remove" aria-label={`Remove ${e.id}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {listing && listing.elsewhere.length > 0 && (
        <>
          <h3>Found elsewhere (not managed by Llama Tray)</h3>
          <ul className="engine-list" data-testid="engines-elsewhere">
            {listing.elsewhere.map((b) => (
              <li key={b.id}>
                <span>
                  {b.path} <small className="note">({b.source})</small>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="row">
        <label>
          Build
          <select
            value={backend}
            onChange={(e) => setBackend(e.target.value as BackendChoice)}
            disabled={busy}
            data-testid="engine-backend"
          >
            {BACKEND_CHOICES.map((c) => (
              <option key={c} value={c}>
                {choiceLabel(c)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="primary" onClick={() => void install()} disabled={busy} data-testid="engine-install">
          {busy ? 'Installing…' : 'Install llama.cpp'}
        </button>
        <button type="button" onClick={() => void check()} disabled={busy} data-testid="engine-check-update">
          Check for a newer release
        </button>
      </div>
      {busy && progress && (
        <div role="status" data-testid="engine-progress">
          {progressText(progress)}
          {progress.phase === 'download' && progress.total ? (
            <progress value={progress.bytes ?? 0} max={progress.total} aria-label="Download progress" />
          ) : null}
        </div>
      )}
      {message && <OutcomeView outcome={message} testId="engine-message" />}
    </section>
  )
}
