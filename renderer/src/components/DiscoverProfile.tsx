import { useState } from 'react'
import type { DiscoveredModel, Discovery } from '../../../app/contract/profile'
import { defaultPick, draftsOf, formatModelSize } from '../lib/discovery-pick'
import { createDiscoveredProfile, discoverOnDisk } from '../actions/profile-actions'
import { startServer } from '../actions/server-actions'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

function modelFacts(m: DiscoveredModel): string {
  const parts = [
    formatModelSize(m.fileMiB),
    m.architecture,
    m.quantisation,
    m.layers !== null ? `${m.layers} layers` : null,
    m.experts !== null ? `${m.experts} experts` : null,
    m.trainingContext !== null ? `trained ctx ${m.trainingContext}` : null,
    m.source,
  ]
  return parts.filter((p): p is string => p !== null && p !== '').join(' · ')
}

function ModelChoice({
  m,
  name,
  checked,
  onPick,
}: {
  readonly m: DiscoveredModel
  readonly name: string
  readonly checked: boolean
  readonly onPick: () => void
}): React.JSX.Element {
  return (
    <li data-testid={`${name}-option`} data-path={m.path}>
      <label className="check">
        <input type="radio" name={name} checked={checked} onChange={onPick} />
        <span>
          <strong>{m.path.split(/[\\/]/).pop()}</strong> {m.looksLikeDraft && <span className="badge">draft</span>}
          <br />
          <small>{modelFacts(m)}</small>
          <br />
          <small className="note">{m.path}</small>
          {m.problem && (
            <>
              <br />
              <small className="fix-error">Cannot read the header: {m.problem}</small>
            </>
          )}
        </span>
      </label>
    </li>
  )
}

/** "Find on disk" for a new user: discover llama-server and GGUF models, pick, create a profile. */
export function DiscoverProfile({
  prominent,
  onCreated,
}: {
  readonly prominent: boolean
  readonly onCreated: (id: string) => void
}): React.JSX.Element {
  const [found, setFound] = useState<Discovery | null>(null)
  const [busy, setBusy] = useState(false)
  const [binaryId, setBinaryId] = useState<string | null>(null)
  const [modelId, setModelId] = useState<string | null>(null)
  const [draftId, setDraftId] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [error, setError] = useState<Problem | null>(null)
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null)

  const find = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    setCreated(null)
    try {
      const r = await discoverOnDisk()
      if (!r.ok) return setError(r.error)
      const pick = defaultPick(r.value)
      setFound(r.value)
      setBinaryId(pick.binaryId)
      setModelId(pick.modelId)
      setDraftId(pick.draftModelId)
    } finally {
      setBusy(false)
    }
  }
  const create = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    if (!binaryId || !modelId) return
    setError(null)
    const r = await createDiscoveredProfile(binaryId, modelId, draftId, name.trim() || null)
    if (!r.ok) return setError(r.error)
    setCreated({ id: r.value.id, name: r.value.name })
    setFound(null)
    setName('')
    onCreated(r.value.id)
  }
  const start = async (id: string): Promise<void> => {
    const r = await startServer(id)
    if (!r.ok) setError(r.error)
  }

  // Only drafts of the chosen model's vocabulary or family are offered as its draft; a draft chosen for another model stays
  // only when it is a draft of this one too.
  const pickModel = (d: Discovery, id: string): void => {
    setModelId(id)
    if (!draftsOf(d, id).some((m) => m.id === draftId)) setDraftId(null)
  }
  const drafts = found ? draftsOf(found, modelId) : []
  const empty = found !== null && (found.binaries.length === 0 || found.models.length === 0)
  return (
    <section className="discover" aria-label="Find llama-server and models">
      {prominent && !found && (
        <p className="note">New here? Llama Tray can look for llama-server and GGUF models already on this computer.</p>
      )}
      <div className="row">
        <button
          type="button"
          className={prominent ? 'primary' : undefined}
          onClick={() => void find()}
          disabled={busy}
          data-testid="discover-find"
        >
          {busy ? 'Looking…' : 'Find llama-server and models'}
        </button>
      </div>
      {created && (
        <p className="fix-ok" role="status" data-testid="discover-created">
          Created “{created.name}”.{' '}
          <button type="button" className="primary" onClick={() => void start(created.id)} data-testid="discover-start">
            Start
          </button>
        </p>
      )}
      {found && (
        <form onSubmit={(e) => void create(e)} data-testid="discover-results">
          <h3>llama-server</h3>
          {found.binaries.length === 0 ? (
            <p className="note">No llama-server found. Put it on PATH, or import a command below.</p>
          ) : (
            <ul className="discover-list">
              {found.binaries.map((b) => (
                <li key={b.id} data-testid="binary-option" data-path={b.path}>
                  <label className="check">
                    <input type="radio" name="binary" checked={binaryId === b.id} onChange={() => setBinaryId(b.id)} />
                    <span>
                      {b.path}
                      <br />
                      <small>{[b.fork, b.version, b.source].filter(Boolean).join(' · ')}</small>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          <h3>Model</h3>
          {found.models.length === 0 ? (
            <p className="note">No GGUF models found.</p>
          ) : (
            <ul className="discover-list">
              {found.models.map((m) => (
                <ModelChoice key={m.id} m={m} name="model" checked={modelId === m.id} onPick={() => pickModel(found, m.id)} />
              ))}
            </ul>
          )}
          {drafts.length > 0 && (
            <>
              <h3>Draft model (optional, for speculative decoding)</h3>
              <ul className="discover-list">
                <li>
                  <label className="check">
                    <input
                      type="radio"
                      name="draft"
                      checked={draftId === null}
                      onChange={() => setDraftId(null)}
                      data-testid="draft-none"
                    />
                    none
                  </label>
                </li>
                {drafts.map((m) => (
                  <ModelChoice key={m.id} m={m} name="draft" checked={draftId === m.id} onPick={() => setDraftId(m.id)} />
                ))}
              </ul>
            </>
          )}
          {empty && (
            <div className="note" data-testid="discover-searched">
              {/* PATH may name a folder twice; the core lists it as searched each time. */}
              <p>Looked in:</p>
              <ul>
                {[...new Set(found.searched)].map((s) => (
                  <li key={s}>
                    <code>{s}</code>
                  </li>
                ))}
              </ul>
              <p>Models elsewhere? Add their folders in Settings → Model folders, then look again.</p>
            </div>
          )}
          <div className="row">
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Name (optional)"
              aria-label="New profile name"
              data-testid="discover-name"
            />
            <button type="submit" className="primary" disabled={!binaryId || !modelId} data-testid="discover-create">
              Create profile
            </button>
          </div>
        </form>
      )}
      {error && <ProblemView problem={error} testId="discover-error" />}
    </section>
  )
}
