import { useEffect, useMemo, useState } from 'react'
import { backendLabel, type EngineInstallProgress } from '../../../app/contract/engines'
import type { ModelPullProgress } from '../../../app/contract/models'
import type { Discovery } from '../../../app/contract/profile'
import {
  createProfileAndStart,
  getModel,
  getRecipe,
  installEngine,
  loadRecipes,
  lookForEngineAndModel,
  MODEL_EXAMPLE,
  type SetupChoice,
} from '../actions/first-run-actions'
import { defaultPick, draftsOf, formatModelSize } from '../lib/discovery-pick'
import { backendReason, downloadText, formatBytes, installLabel, installPhaseText, missingForFirstRun } from '../lib/first-run'
import { useFirstRunStore } from '../stores/first-run-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

/** The same step in a terminal, in small text under each step. */
function CliHint({ children }: { readonly children: React.ReactNode }): React.JSX.Element {
  return <small className="note cli-hint">In a terminal: {children}</small>
}

function Failure({ message, testId }: { readonly message: Problem; readonly testId: string }): React.JSX.Element {
  return <ProblemView problem={message} testId={testId} />
}

/** A download's bar (bytes against the total, its rate), or the phase after it. */
function InstallProgress({ progress }: { readonly progress: EngineInstallProgress | null }): React.JSX.Element {
  const p = progress ?? { phase: 'release' as const, asset: null, bytes: null, total: null, rateBps: null }
  const text = p.phase === 'download' ? downloadText(p) : ''
  const known = p.phase === 'download' && p.total !== null && p.bytes !== null
  return (
    <div className="first-run-progress" role="status" data-testid="engine-progress" data-phase={p.phase}>
      <span>{installPhaseText(p)}</span>
      {known ? (
        <progress
          max={p.total ?? 1}
          value={p.bytes ?? 0}
          aria-label="Download of llama.cpp"
          aria-valuetext={text}
          data-testid="engine-progress-bar"
        />
      ) : (
        <progress aria-label="Installing llama.cpp" aria-valuetext={installPhaseText(p)} />
      )}
      {text && <span className="note">{text}</span>}
    </div>
  )
}

function FoundBinaries({ found }: { readonly found: Discovery }): React.JSX.Element {
  return (
    <ul className="discover-list" aria-label="llama-server found">
      {found.binaries.slice(0, 3).map((b) => (
        <li key={b.id} data-testid="first-run-binary" data-path={b.path}>
          <code>{b.path}</code>
          <br />
          <small>{[b.fork, b.version, b.source].filter(Boolean).join(' · ')}</small>
        </li>
      ))}
    </ul>
  )
}

function EngineStep({ found }: { readonly found: Discovery | null }): React.JSX.Element {
  const plan = useFirstRunStore((s) => s.plan)
  const planError = useFirstRunStore((s) => s.planError)
  const engine = useFirstRunStore((s) => s.engine)
  const has = found !== null && !missingForFirstRun(found).engine
  return (
    <li className="first-run-step" data-testid="first-run-engine" data-done={has ? 'true' : 'false'}>
      <h3>1. llama.cpp (llama-server)</h3>
      {found === null && <p className="note">Looking on this computer…</p>}
      {found !== null && has && (
        <>
          <p className="fix-ok">
            {engine.done ? `Installed llama.cpp ${engine.done.tag} (${backendLabel(engine.done.backend)}).` : 'Found on this computer:'}
          </p>
          {engine.done?.notice && (
            <p className="note" title={engine.done.noticeDetail ?? undefined} data-testid="engine-notice">
              {engine.done.notice}
            </p>
          )}
          <FoundBinaries found={found} />
        </>
      )}
      {found !== null && !has && (
        <>
          <p>No llama-server found on this computer (looked in {new Set(found.searched).size} folders).</p>
          {plan && (
            <p className="note" data-testid="engine-plan">
              {backendReason(plan)}
            </p>
          )}
          {/* A failed install says why once: the offer's own refusal then gives way to it. */}
          {planError && !engine.error && <Failure message={planError} testId="engine-plan-error" />}
          <div className="row">
            <button
              type="button"
              className="primary"
              onClick={() => void installEngine()}
              disabled={engine.busy}
              data-testid="engine-install"
            >
              {installLabel(plan)}
            </button>
          </div>
          {engine.busy && <InstallProgress progress={engine.progress} />}
          {engine.error && <Failure message={engine.error} testId="engine-error" />}
        </>
      )}
      <CliHint>
        <code>llama-tray engines install</code>
      </CliHint>
    </li>
  )
}

/** The model's download: bytes of every part against the whole, and the file being fetched. */
function PullProgress({ progress }: { readonly progress: ModelPullProgress | null }): React.JSX.Element {
  const text = progress ? downloadText(progress) : ''
  return (
    <div className="first-run-progress" role="status" data-testid="model-progress">
      <span>{progress ? `Downloading ${progress.file}` : 'Asking the Hugging Face Hub for the files…'}</span>
      {progress ? (
        <progress
          max={Math.max(1, progress.total)}
          value={progress.bytes}
          aria-label="Download of the model"
          aria-valuetext={text}
          data-testid="model-progress-bar"
        />
      ) : (
        <progress aria-label="Downloading the model" />
      )}
      {text && <span className="note">{text}</span>}
    </div>
  )
}

/** Every GGUF found, to choose the model from (drafts shown as drafts, offered as the draft of the chosen model). */
function ModelChoice({
  found,
  choice,
  onChoice,
}: {
  readonly found: Discovery
  readonly choice: SetupChoice
  readonly onChoice: (c: SetupChoice) => void
}): React.JSX.Element {
  const usable = found.models.filter((m) => m.problem === null)
  // Only drafts of the chosen model's vocabulary or family are offered as its draft.
  const chosenId = found.models.find((m) => m.path === choice.modelPath)?.id ?? null
  const drafts = draftsOf(found, chosenId)
  const name = (path: string): string => path.split(/[\\/]/).pop() ?? path
  return (
    <>
      <p className="fix-ok">On this computer (choose the model to run):</p>
      <ul className="discover-list" aria-label="Models found">
        {usable.map((m) => (
          <li key={m.id} data-testid="first-run-found-model" data-path={m.path} data-draft={m.looksLikeDraft ? 'true' : 'false'}>
            <label>
              <input
                type="radio"
                name="first-run-model"
                checked={choice.modelPath === m.path}
                onChange={() =>
                  onChoice({
                    modelPath: m.path,
                    // A draft chosen for another model stays only when it is a draft of this one too.
                    draftPath: draftsOf(found, m.id).some((d) => d.path === choice.draftPath) ? choice.draftPath : null,
                  })
                }
                data-testid="first-run-model-choice"
              />{' '}
              <code>{name(m.path)}</code>{' '}
              <small>
                {[formatModelSize(m.fileMiB), m.quantisation, m.looksLikeDraft ? 'draft' : null, m.source].filter(Boolean).join(' · ')}
              </small>
            </label>
          </li>
        ))}
      </ul>
      {drafts.length > 0 && (
        <p className="row">
          <label htmlFor="first-run-draft">Draft model (speculative decoding)</label>
          <select
            id="first-run-draft"
            value={choice.draftPath ?? ''}
            onChange={(e) => onChoice({ ...choice, draftPath: e.target.value || null })}
            data-testid="first-run-draft-choice"
          >
            <option value="">None</option>
            {drafts.map((d) => (
              <option key={d.id} value={d.path}>
                {name(d.path)} ({formatModelSize(d.fileMiB)})
              </option>
            ))}
          </select>
        </p>
      )}
    </>
  )
}

function ModelStep({
  found,
  choice,
  onChoice,
}: {
  readonly found: Discovery | null
  readonly choice: SetupChoice
  readonly onChoice: (c: SetupChoice) => void
}): React.JSX.Element {
  const model = useFirstRunStore((s) => s.model)
  const [ref, setRef] = useState(MODEL_EXAMPLE)
  const usable = found?.models.filter((m) => m.problem === null) ?? []
  const offerPull = found !== null && (usable.length === 0 || model.busy || model.error !== null || model.done !== null)
  const recipes = useFirstRunStore((s) => s.recipes)
  const recipe = useFirstRunStore((s) => s.recipe)
  useEffect(() => {
    void loadRecipes()
  }, [])
  const submit = (e: React.FormEvent): void => {
    e.preventDefault()
    void getModel(ref)
  }
  return (
    <li className="first-run-step" data-testid="first-run-model" data-done={usable.length > 0 ? 'true' : 'false'}>
      <h3>2. A model (GGUF)</h3>
      {model.done && (
        <p className="fix-ok" data-testid="model-pulled">
          {model.done.cached ? 'Already downloaded' : 'Downloaded'}: {model.done.file} from {model.done.repo} (
          {formatBytes(model.done.sizeBytes)}, sha256 checked).
        </p>
      )}
      {found !== null && usable.length > 0 && <ModelChoice found={found} choice={choice} onChoice={onChoice} />}
      {found !== null && usable.length === 0 && (
        <p>No GGUF model found on this computer (models elsewhere? add their folders in Settings → Model folders).</p>
      )}
      {recipe && (
        <p className="fix-ok" data-testid="recipe-applied">
          Set up {recipe.title}: profile <code>{recipe.result.profileId}</code> with --n-cpu-moe {recipe.result.nCpuMoe} fitted to this GPU
          {recipe.result.fits === false ? ' (the closest; it does not fit the free VRAM)' : ''}.
        </p>
      )}
      {offerPull && recipes.length > 0 && recipe === null && (
        <ul className="discover-list" aria-label="Ready-made setups">
          {recipes.map((r) => (
            <li key={r.id} className="row" data-testid="recipe-offer" data-recipe={r.id}>
              <span>
                <strong>{r.title}</strong>
                <br />
                <small className="note">
                  {r.target} + {r.draft}: two downloads and a profile fitted to this GPU
                </small>
              </span>
              <button
                type="button"
                className="primary"
                disabled={model.busy}
                onClick={() => void getRecipe(r.id)}
                data-testid="recipe-apply"
              >
                Get this setup
              </button>
            </li>
          ))}
        </ul>
      )}
      {offerPull && (
        <form className="row" onSubmit={submit}>
          <label htmlFor="first-run-model-ref">From Hugging Face (org/repo:quant)</label>
          <input
            id="first-run-model-ref"
            value={ref}
            onChange={(e) => setRef(e.target.value)}
            spellCheck={false}
            size={34}
            data-testid="model-ref"
          />
          <button type="submit" className="primary" disabled={model.busy} data-testid="model-pull">
            Get model
          </button>
        </form>
      )}
      {model.busy && <PullProgress progress={model.progress} />}
      {model.error && <Failure message={model.error} testId="model-error" />}
      <CliHint>
        <code>llama-tray models pull {ref.trim() || MODEL_EXAMPLE}</code> (or <code>llama-tray models list</code> for what is here)
      </CliHint>
    </li>
  )
}

function StartStep({
  found,
  choice,
  onStarted,
}: {
  readonly found: Discovery | null
  readonly choice: SetupChoice
  readonly onStarted: () => void
}): React.JSX.Element {
  const start = useFirstRunStore((s) => s.start)
  const missing = found === null ? { engine: true, model: true } : missingForFirstRun(found)
  const ready = !missing.engine && !missing.model
  const go = async (): Promise<void> => {
    if (await createProfileAndStart(choice)) onStarted()
  }
  return (
    <li className="first-run-step" data-testid="first-run-start">
      <h3>3. Run it</h3>
      <p className="note">
        {ready
          ? 'A profile for the chosen model with starter settings (8K context, one slot, experts placed to fit this GPU); change them ' +
            'later under Profiles.'
          : 'Once llama.cpp and a model are here.'}
      </p>
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={() => void go()}
          disabled={!ready || start.busy}
          data-testid="first-run-create-start"
        >
          {start.busy ? 'Starting…' : 'Create profile and start'}
        </button>
      </div>
      {start.error && <Failure message={start.error} testId="first-run-start-error" />}
      <CliHint>
        <code>llama-tray profiles discover --create</code>, then <code>llama-tray run &lt;profile&gt;</code>
      </CliHint>
    </li>
  )
}

/**
 * The first run on a machine with no llama-server or no model: what was found,
 * llama.cpp's release for this GPU installed with its progress, a model, then
 * a profile started. Every step names its CLI command.
 */
export function FirstRunView({ onStarted }: { readonly onStarted: () => void }): React.JSX.Element {
  const found = useFirstRunStore((s) => s.found)
  const looking = useFirstRunStore((s) => s.looking)
  const lookError = useFirstRunStore((s) => s.lookError)
  const pulled = useFirstRunStore((s) => s.model.done?.path ?? null)
  const [picked, setPicked] = useState<SetupChoice | null>(null)
  // Until the user chooses: the model just pulled, else the largest found; no draft.
  const suggested = useMemo<SetupChoice>(() => {
    if (!found) return { modelPath: null, draftPath: null }
    const pick = defaultPick(found)
    const path = (id: string | null): string | null => found.models.find((m) => m.id === id)?.path ?? null
    const pulledHere = found.models.some((m) => m.path === pulled) ? pulled : null
    // a draft only when the user picks one (its vocabulary must match)
    return { modelPath: pulledHere ?? path(pick.modelId), draftPath: null }
  }, [found, pulled])
  const choice = picked ?? suggested
  useEffect(() => {
    if (useFirstRunStore.getState().found === null && !useFirstRunStore.getState().looking) void lookForEngineAndModel()
  }, [])
  return (
    <section className="first-run" aria-labelledby="first-run-title" data-testid="first-run">
      <h2 id="first-run-title">Get started</h2>
      <p className="note">
        Llama Tray runs llama.cpp’s llama-server with a GGUF model, and watches it. Three steps get you there; each is also a command of the
        llama-tray CLI.
      </p>
      {lookError && <Failure message={lookError} testId="first-run-look-error" />}
      <ol className="first-run-steps">
        <EngineStep found={found} />
        <ModelStep found={found} choice={choice} onChoice={setPicked} />
        <StartStep found={found} choice={choice} onStarted={onStarted} />
      </ol>
      <div className="row">
        <button type="button" onClick={() => void lookForEngineAndModel()} disabled={looking} data-testid="first-run-look-again">
          {looking ? 'Looking…' : 'Look again'}
        </button>
      </div>
    </section>
  )
}
