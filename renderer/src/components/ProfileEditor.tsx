import { useCallback, useEffect, useState } from 'react'
import type { ExportFormat, FlagProblemSummary, ProfileDocument, ProfileFileRole } from '../../../app/contract/profile'
import { argsToText, textToArgs } from '../lib/args-text'
import { type FormValues, formToSettings, SETTING_FIELDS, settingsToForm } from '../lib/profile-fields'
import { api } from '../stores/api'
import { useProfileStore } from '../stores/profile-store'
import { MutedWarnings } from './MutedWarnings'

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
  return { name: doc.name, model: doc.model, draftModel: doc.draftModel ?? '', extraArgs: argsToText(doc.extraArgs), notes: doc.notes, settings: settingsToForm(doc.settings) }
}

function FlagProblems({ problems, onFix }: { readonly problems: readonly FlagProblemSummary[]; readonly onFix: () => void }): React.JSX.Element {
  if (problems.length === 0) return <p className="fix-ok" data-testid="flag-problems-none">No flag problems for this binary.</p>
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

/** The editor: typed fields, raw extra arguments, flag checks, files, export, duplicate, delete. */
export function ProfileEditor({ profileId, onSelect, onDeleted }: Props): React.JSX.Element {
  const updatedAt = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === profileId)?.updatedAt ?? null)
  const engine = useProfileStore((s) => s.summary?.profiles.find((p) => p.id === profileId)?.engine ?? null)
  const [doc, setDoc] = useState<ProfileDocument | null>(null)
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problems, setProblems] = useState<readonly FlagProblemSummary[] | null>(null)
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const [exported, setExported] = useState<string | null>(null)
  const [format, setFormat] = useState<ExportFormat>('bash')

  const report = (ok: boolean, text: string): void => setMessage({ ok, text })
  const check = useCallback(async () => {
    const r = await api().profilesCheck(profileId)
    if (r.ok) setProblems(r.value)
    else setMessage({ ok: false, text: r.error })
  }, [profileId])

  // Reload whenever main says the profile changed (save, fix, file choice).
  useEffect(() => {
    let live = true
    void api()
      .profilesGet(profileId)
      .then((d) => {
        if (!live || !d) return
        setDoc(d)
        setDraft(draftOf(d))
      })
    return () => {
      live = false
    }
  }, [profileId, updatedAt])

  if (!doc || !draft) return <section className="editor">Loading…</section>
  const set = (patch: Partial<Draft>): void => setDraft({ ...draft, ...patch })
  const setField = (key: string, value: string | boolean): void => setDraft({ ...draft, settings: { ...draft.settings, [key]: value } })

  const save = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    const settings = formToSettings(draft.settings, doc.settings)
    if ('error' in settings) return report(false, settings.error)
    const r = await api().profilesUpdate(profileId, {
      name: draft.name.trim(),
      model: draft.model.trim(),
      draftModel: draft.draftModel.trim() || null,
      settings: settings.settings,
      extraArgs: textToArgs(draft.extraArgs),
      notes: draft.notes,
    })
    if (!r.ok) return report(false, r.error)
    report(true, 'Saved.')
    await check()
  }
  const choose = async (role: ProfileFileRole): Promise<void> => {
    const r = await api().profilesChooseFile(profileId, role)
    if (!r.ok) report(false, r.error)
  }
  const applyFixes = async (): Promise<void> => {
    const r = await api().profilesApplyFlagFixes(profileId)
    if (!r.ok) return report(false, r.error)
    report(true, 'Replacements applied.')
    await check()
  }
  const doExport = async (): Promise<void> => {
    const r = await api().profilesExport(profileId, format)
    if (r.ok) setExported(r.value)
    else report(false, r.error)
  }
  const duplicate = async (): Promise<void> => {
    const r = await api().profilesDuplicate(profileId)
    if (r.ok) onSelect(r.value.id)
    else report(false, r.error)
  }
  const remove = async (): Promise<void> => {
    const r = await api().profilesDelete(profileId)
    if (r.ok) onDeleted(profileId, r.value.name)
    else report(false, r.error)
  }

  return (
    <section className="editor" aria-label={`Edit ${doc.name}`} data-testid="profile-editor">
      <form onSubmit={(e) => void save(e)}>
        <div className="editor-head">
          <label className="grow">
            Name
            <input value={draft.name} onChange={(e) => set({ name: e.target.value })} data-testid="edit-name" />
          </label>
          <span className="engine" title="the binary's detected engine">
            {engine ?? 'engine not checked'}
          </span>
        </div>
        <div className="file-row">
          <span className="file-label">Binary</span>
          <code className="path" title={doc.binary}>
            {doc.binary || 'not chosen'}
          </code>
          <button type="button" onClick={() => void choose('binary')}>
            Choose…
          </button>
        </div>
        <label>
          Model
          <span className="row">
            <input value={draft.model} onChange={(e) => set({ model: e.target.value })} spellCheck={false} data-testid="edit-model" />
            <button type="button" onClick={() => void choose('model')}>
              Choose…
            </button>
          </span>
        </label>
        <label>
          Draft model
          <span className="row">
            <input value={draft.draftModel} onChange={(e) => set({ draftModel: e.target.value })} spellCheck={false} placeholder="none" data-testid="edit-draft" />
            <button type="button" onClick={() => void choose('draftModel')}>
              Choose…
            </button>
          </span>
        </label>
        <fieldset className="fields">
          <legend>Launch settings</legend>
          {SETTING_FIELDS.map((f) => (
            <label key={f.key} className={f.kind === 'boolean' ? 'check' : undefined} title={f.flag}>
              {f.kind === 'boolean' ? (
                <input type="checkbox" checked={draft.settings[f.key] === true} onChange={(e) => setField(f.key, e.target.checked)} data-testid={`edit-${f.key}`} />
              ) : null}
              <span>
                {f.label} <code>{f.flag}</code>
              </span>
              {f.kind !== 'boolean' && (
                <input
                  value={String(draft.settings[f.key] ?? '')}
                  inputMode={f.kind === 'number' ? 'decimal' : undefined}
                  placeholder={f.placeholder}
                  onChange={(e) => setField(f.key, e.target.value)}
                  data-testid={`edit-${f.key}`}
                />
              )}
            </label>
          ))}
        </fieldset>
        <label>
          Extra arguments (one per line)
          <textarea value={draft.extraArgs} onChange={(e) => set({ extraArgs: e.target.value })} rows={4} spellCheck={false} data-testid="edit-extra-args" />
        </label>
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
      </form>
      {message && (
        <p className={message.ok ? 'fix-ok' : 'fix-error'} role="status" data-testid="edit-message">
          {message.text}
        </p>
      )}
      {problems && <FlagProblems problems={problems} onFix={() => void applyFixes()} />}
      <MutedWarnings profileId={profileId} />
      <div className="export row">
        <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)} aria-label="Export format">
          <option value="bash">bash</option>
          <option value="cmd">cmd</option>
          <option value="powershell">PowerShell</option>
        </select>
        <button type="button" onClick={() => void doExport()} data-testid="edit-export">
          Export command
        </button>
        {exported !== null && (
          <button type="button" onClick={() => void navigator.clipboard?.writeText(exported)}>
            Copy
          </button>
        )}
      </div>
      {exported !== null && <textarea className="exported" readOnly value={exported} rows={3} data-testid="exported" />}
    </section>
  )
}
