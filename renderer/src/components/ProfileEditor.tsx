import { failedOutcome, type Outcome } from '../lib/outcome'
import { OutcomeView } from './OutcomeView'
import { useCallback, useEffect, useState } from 'react'
import { AdvisorNotes } from './AdvisorNotes'
import type { ExportFormat, FlagProblemSummary, ProfileDocument, ProfileFileRole, ProfileSummary } from '../../../app/contract/profile'
import type { BinaryFlags } from '../../../app/contract/binary-flags'
import type { Warning } from '../../../app/contract/warnings'
import {
  applyFlagFixes,
  checkFlags,
  chooseProfileFile,
  deleteProfile,
  duplicateProfile,
  exportCommand,
  loadProfile,
  saveProfile,
  setProfileCommand,
} from '../actions/profile-actions'
import { argsToText, textToArgs } from '../lib/args-text'
import {
  type FormValues,
  formToSettings,
  SECTIONS,
  type SectionId,
  sectionFields,
  type SettingField,
  settingsToForm,
} from '../lib/profile-fields'
import { useProfileStore } from '../stores/profile-store'
import { FitPanel } from './FitPanel'
import { MutedWarnings } from './MutedWarnings'
import { findingsLead, SaveFindings } from './SaveFindings'
import { problem, type Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

interface Props {
  readonly profileId: string
  readonly onSelect: (id: string) => void
  readonly onDeleted: (id: string, name: string) => void
}

interface Draft {
  readonly name: string
  readonly model: string
  readonly draftModel: string
  readonly extraArgs: string
  readonly notes: string
  readonly settings: FormValues
}

function draftOf(doc: ProfileDocument): Draft {
  return {
    name: doc.name,
    model: doc.model,
    draftModel: doc.draftModel ?? '',
    extraArgs: argsToText(doc.extraArgs),
    notes: doc.notes,
    settings: settingsToForm(doc.settings),
  }
}

function FlagProblems({
  problems,
  onFix,
}: {
  readonly problems: readonly FlagProblemSummary[]
  readonly onFix: () => void
}): React.JSX.Element {
  if (problems.length === 0)
    return (
      <p className="fix-ok" data-testid="flag-problems-none">
        No flag problems for this binary.
      </p>
    )
  const fixable = problems.some((p) => p.replacement !== null)
  return (
    <div className="flag-problems" data-testid="flag-problems" role="alert">
      <ul>
        {problems.map((p) => (
          <li key={`${p.flag}-${p.kind}`} className={`problem kind-${p.kind}`}>
            <code>{p.flag}</code> {p.message}
            {p.replacement && (
              <>
                {' '}
                → <code>{p.replacement.join(' ') || '(remove)'}</code>
              </>
            )}
          </li>
        ))}
      </ul>
      {fixable && (
        <button type="button" onClick={onFix} data-testid="apply-flag-fixes">
          Apply the replacements
        </button>
      )}
    </div>
  )
}

/** One typed field: the plain-language label, the flag as secondary text. */
function Field({
  field,
  value,
  onChange,
}: {
  readonly field: SettingField
  readonly value: string | boolean | undefined
  readonly onChange: (v: string | boolean) => void
}): React.JSX.Element {
  if (field.kind === 'boolean') {
    return (
      <label className="check">
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} data-testid={`edit-${field.key}`} />
        <span>
          {field.label} <code className="flag">{field.flag}</code>
        </span>
      </label>
    )
  }
  return (
    <label>
      <span>
        {field.label} <code className="flag">{field.flag}</code>
      </span>
      <input
        value={String(value ?? '')}
        inputMode={field.kind === 'number' ? 'decimal' : undefined}
        placeholder={field.placeholder}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        data-testid={`edit-${field.key}`}
      />
    </label>
  )
}

function SectionFields({
  section,
  settings,
  setField,
  binary,
}: {
  readonly section: SectionId
  readonly settings: FormValues
  readonly setField: (key: string, v: string | boolean) => void
  /** The flags the profile's binary takes: only their controls are offered, in its spelling. */
  readonly binary: BinaryFlags | null
}): React.JSX.Element {
  const { common, more } = sectionFields(section, binary)
  return (
    <>
      {common.length > 0 && (
        <div className="fields">
          {common.map((f) => (
            <Field key={f.key} field={f} value={settings[f.key]} onChange={(v) => setField(f.key, v)} />
          ))}
        </div>
      )}
      {more.length > 0 && (
        <details className="more" data-testid={`more-${section}`}>
          <summary>More</summary>
          <div className="fields">
            {more.map((f) => (
              <Field key={f.key} field={f} value={settings[f.key]} onChange={(v) => setField(f.key, v)} />
            ))}
          </div>
        </details>
      )}
    </>
  )
}

/** The full command the profile runs, always in view, in the chosen shell's syntax: copy it, or edit it and apply. */
function RawCommand({
  profileId,
  updatedAt,
  onSaved,
}: {
  readonly profileId: string
  readonly updatedAt: string | null
  readonly onSaved: (summary: ProfileSummary) => void
}): React.JSX.Element {
  const [format, setFormat] = useState<ExportFormat>('bash')
  const [command, setCommand] = useState<string | null>(null)
  const [edited, setEdited] = useState<string | null>(null)
  const [error, setError] = useState<Problem | null>(null)
  const [applyError, setApplyError] = useState<Problem | null>(null)
  useEffect(() => {
    let live = true
    void exportCommand(profileId, format).then((r) => {
      if (!live) return
      setCommand(r.ok ? r.value : null)
      setError(r.ok ? null : r.error)
    })
    return () => {
      live = false
    }
  }, [profileId, format, updatedAt])
  const changed = edited !== null && edited !== command
  const apply = async (): Promise<void> => {
    if (edited === null) return
    const r = await setProfileCommand(profileId, edited)
    setApplyError(
      r.ok
        ? null
        : {
            ...r.error,
            sentence: `The command was not applied: ${r.error.sentence.replace(/\.$/, '')}. Fix it and apply again, or revert.`,
          },
    )
    if (!r.ok) return
    setEdited(null)
    onSaved(r.value)
  }
  return (
    <div className="raw-command">
      <div className="row">
        <label className="inline">
          Command for
          <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)} data-testid="export-format">
            <option value="bash">bash</option>
            <option value="cmd">cmd</option>
            <option value="powershell">PowerShell</option>
          </select>
        </label>
        {command !== null && (
          <button type="button" onClick={() => void navigator.clipboard?.writeText(edited ?? command)} data-testid="edit-export">
            Copy command
          </button>
        )}
        {changed && (
          <>
            <button type="button" onClick={() => void apply()} data-testid="apply-command">
              Apply command
            </button>
            <button type="button" onClick={() => (setEdited(null), setApplyError(null))} data-testid="revert-command">
              Revert
            </button>
          </>
        )}
      </div>
      {error ? (
        <ProblemView problem={error} alert={false} />
      ) : (
        <textarea
          className="exported"
          value={edited ?? command ?? ''}
          onChange={(e) => setEdited(e.target.value)}
          rows={3}
          spellCheck={false}
          aria-label="The command this profile runs: edit it and apply to change the profile"
          data-testid="exported"
        />
      )}
      {applyError && <ProblemView problem={applyError} testId="apply-command-error" />}
    </div>
  )
}

/**
 * The editor: sections of typed fields (common ones first, the rest under More), the fit beside the offload, the raw command, flag checks,
 * files.
 */
export function ProfileEditor({ profileId, onSelect, onDeleted }: Props): React.JSX.Element {
  const updatedAt = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === profileId)?.updatedAt ?? null)
  const fork = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === profileId)?.fork ?? null)
  const [doc, setDoc] = useState<ProfileDocument | null>(null)
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problems, setProblems] = useState<readonly FlagProblemSummary[] | null>(null)
  const [message, setMessage] = useState<Outcome | null>(null)
  // The advisor's warnings on what the last save stored, told once beside Save.
  const [findings, setFindings] = useState<readonly Warning[]>([])

  const report = (ok: boolean, text: string): void => {
    setMessage(ok ? { ok, text } : failedOutcome(problem('input', text)))
    setFindings([])
  }
  const refused = (p: Problem): void => {
    setMessage(failedOutcome(p))
    setFindings([])
  }
  // The gate may have written a flag in this binary's spelling and the advisor may warn: both said once, with the save.
  const reportSaved = (summary: ProfileSummary): void => {
    const found = summary.findings ?? []
    setMessage({ ok: true, text: ['Saved.', ...(summary.notices ?? []), findingsLead(found)].filter(Boolean).join(' ') })
    setFindings(found)
  }
  const check = useCallback(async () => {
    const r = await checkFlags(profileId)
    if (r.ok) setProblems(r.value)
    else setMessage(failedOutcome(r.error))
  }, [profileId])

  // Reload whenever main says the profile changed (save, fix, file choice).
  useEffect(() => {
    let live = true
    void loadProfile(profileId).then((d) => {
      if (!live || !d) return
      setDoc(d)
      setDraft(draftOf(d))
    })
    return () => {
      live = false
    }
  }, [profileId, updatedAt])

  if (!doc || !draft) return <section className="editor">Loading…</section>
  const binary = doc.binaryFlags ?? null
  const set = (patch: Partial<Draft>): void => setDraft({ ...draft, ...patch })
  const setField = (key: string, value: string | boolean): void => setDraft({ ...draft, settings: { ...draft.settings, [key]: value } })

  const save = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    const settings = formToSettings(draft.settings, doc.settings, binary)
    if ('error' in settings) return report(false, settings.error)
    const r = await saveProfile(profileId, {
      name: draft.name.trim(),
      model: draft.model.trim(),
      draftModel: draft.draftModel.trim() || null,
      settings: settings.settings,
      extraArgs: textToArgs(draft.extraArgs),
      notes: draft.notes,
    })
    if (!r.ok) return refused(r.error)
    reportSaved(r.value)
    await check()
  }
  const choose = async (role: ProfileFileRole): Promise<void> => {
    const r = await chooseProfileFile(profileId, role)
    if (!r.ok) refused(r.error)
  }
  const fixFlags = async (): Promise<void> => {
    const r = await applyFlagFixes(profileId)
    if (!r.ok) return refused(r.error)
    report(true, 'Replacements applied.')
    await check()
  }
  const duplicate = async (): Promise<void> => {
    const r = await duplicateProfile(profileId)
    if (r.ok) onSelect(r.value.id)
    else refused(r.error)
  }
  const remove = async (): Promise<void> => {
    const r = await deleteProfile(profileId)
    if (r.ok) onDeleted(profileId, r.value.name)
    else refused(r.error)
  }
  const title = (id: SectionId): string => SECTIONS.find((s) => s.id === id)?.title ?? id

  return (
    <section className="editor" aria-label={`Edit ${doc.name}`} data-testid="profile-editor">
      <form onSubmit={(e) => void save(e)}>
        <div className="editor-head">
          <label className="grow">
            Name
            <input value={draft.name} onChange={(e) => set({ name: e.target.value })} data-testid="edit-name" />
          </label>
          <span className="engine" title="the binary's detected engine">
            {fork ?? 'engine not checked'}
          </span>
        </div>

        <AdvisorNotes profileId={doc.id} />

        <fieldset className="section" data-testid="section-model">
          <legend>{title('model')}</legend>
          <div className="file-row">
            <span className="file-label">llama-server</span>
            <code className="path" title={doc.binary}>
              {doc.binary || 'not chosen'}
            </code>
            <button type="button" onClick={() => void choose('binary')} aria-label="Choose the llama-server binary">
              Choose…
            </button>
          </div>
          <label>
            <span>
              Model file <code className="flag">-m</code>
            </span>
            <span className="row">
              <input value={draft.model} onChange={(e) => set({ model: e.target.value })} spellCheck={false} data-testid="edit-model" />
              <button type="button" onClick={() => void choose('model')} aria-label="Choose the model file">
                Choose…
              </button>
            </span>
          </label>
          <label>
            <span>
              Draft model for speculative decoding <code className="flag">-md</code>
            </span>
            <span className="row">
              <input
                value={draft.draftModel}
                onChange={(e) => set({ draftModel: e.target.value })}
                spellCheck={false}
                placeholder="none"
                data-testid="edit-draft"
              />
              <button type="button" onClick={() => void choose('draftModel')} aria-label="Choose the draft model file">
                Choose…
              </button>
            </span>
          </label>
          <SectionFields section="model" settings={draft.settings} setField={setField} binary={binary} />
        </fieldset>

        {/* The fit beside the offload settings: its suggestion is in view while editing them. */}
        <div className="section-with-fit">
          <fieldset className="section" data-testid="section-offload">
            <legend>{title('offload')}</legend>
            <SectionFields section="offload" settings={draft.settings} setField={setField} binary={binary} />
          </fieldset>
          <FitPanel profileId={profileId} />
        </div>

        {(['context', 'speculative', 'sampling', 'network'] as const).map((id) => (
          <fieldset key={id} className="section" data-testid={`section-${id}`}>
            <legend>{title(id)}</legend>
            <SectionFields section={id} settings={draft.settings} setField={setField} binary={binary} />
          </fieldset>
        ))}

        <fieldset className="section" data-testid="section-command">
          <legend>Command</legend>
          <label>
            Other arguments, one per line (passed to llama-server as they are)
            <textarea
              value={draft.extraArgs}
              onChange={(e) => set({ extraArgs: e.target.value })}
              rows={4}
              spellCheck={false}
              data-testid="edit-extra-args"
            />
          </label>
          <RawCommand profileId={profileId} updatedAt={updatedAt} onSaved={reportSaved} />
        </fieldset>

        <label>
          Notes
          <textarea value={draft.notes} onChange={(e) => set({ notes: e.target.value })} rows={2} />
        </label>
        <div className="row actions">
          <button type="submit" className="primary" data-testid="edit-save">
            Save
          </button>
          <button type="button" onClick={() => void check()} data-testid="edit-check">
            Check flags
          </button>
          <button type="button" onClick={() => void duplicate()} data-testid="edit-duplicate">
            Duplicate
          </button>
          <button type="button" className="danger" onClick={() => void remove()} data-testid="edit-delete">
            Delete
          </button>
        </div>
        {message && <OutcomeView outcome={message} testId="edit-message" />}
        <SaveFindings
          findings={findings}
          onResult={(r, fixed) => {
            setMessage(r)
            if (r.ok) setFindings(findings.filter((f) => f.id !== fixed.id))
          }}
        />
      </form>
      {problems && <FlagProblems problems={problems} onFix={() => void fixFlags()} />}
      <MutedWarnings profileId={profileId} />
    </section>
  )
}
