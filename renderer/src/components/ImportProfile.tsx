import { useState } from 'react'
import type { ImportCommandOptions, ImportOffer } from '../../../app/contract/import-wording'
import type { Warning } from '../../../app/contract/warnings'
import { importProfile } from '../actions/profile-actions'
import { findingsLead, SaveFindings } from './SaveFindings'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

/** A refused import: the core's sentence, and the override it offers (the CLI's --force and --replace as buttons). */
interface Refusal {
  readonly problem: Problem
  readonly offer: ImportOffer | null
}

const OVERRIDE_LABEL: Readonly<Record<ImportOffer, string>> = { force: 'Import anyway', replace: 'Replace' }

/** Creates a profile from a pasted llama-server command (stored, not run). */
export function ImportProfile({ onImported }: { readonly onImported: (id: string) => void }): React.JSX.Element {
  const [text, setText] = useState('')
  const [name, setName] = useState('')
  const [refusal, setRefusal] = useState<Refusal | null>(null)
  // What the import stored, said once: the gate's spellings, the advisor's warnings with their fixes.
  const [saved, setSaved] = useState<{ readonly ok: boolean; readonly text: string } | null>(null)
  const [findings, setFindings] = useState<readonly Warning[]>([])
  // What the user already chose to override, kept while another refusal follows (a missing model and a name taken).
  const [overrides, setOverrides] = useState<ImportCommandOptions>({})
  const run = async (options: ImportCommandOptions): Promise<void> => {
    setRefusal(null)
    setSaved(null)
    setFindings([])
    const r = await importProfile(text, name.trim() || null, options)
    if (!r.ok) {
      setOverrides(options)
      return setRefusal({ problem: r.error, offer: r.offer ?? null })
    }
    setText('')
    setName('')
    setOverrides({})
    const found = r.value.findings ?? []
    setSaved({ ok: true, text: ['Imported.', ...(r.value.notices ?? []), findingsLead(found)].filter(Boolean).join(' ') })
    setFindings(found)
    onImported(r.value.id)
  }
  const submit = (e: React.FormEvent): void => {
    e.preventDefault()
    void run({})
  }
  const edit = (set: (v: string) => void, v: string): void => {
    set(v)
    setRefusal(null)
    setOverrides({})
  }
  return (
    <form className="import" onSubmit={submit} aria-label="Import a command">
      <label>
        Paste a llama-server command
        <textarea
          value={text}
          onChange={(e) => edit(setText, e.target.value)}
          rows={3}
          spellCheck={false}
          placeholder="llama-server -m model.gguf --n-cpu-moe 30 -c 32768"
          data-testid="import-command"
        />
      </label>
      <div className="row">
        <input
          value={name}
          onChange={(e) => edit(setName, e.target.value)}
          placeholder="Name (optional)"
          aria-label="Profile name"
          data-testid="import-name"
        />
        <button type="submit" disabled={!text.trim()} data-testid="import-submit">
          Import
        </button>
      </div>
      {refusal && (
        <ProblemView problem={refusal.problem} testId="import-error">
          {refusal.offer && (
            <button
              type="button"
              onClick={() => void run({ ...overrides, [refusal.offer as ImportOffer]: true })}
              data-testid={`import-${refusal.offer}`}
            >
              {OVERRIDE_LABEL[refusal.offer]}
            </button>
          )}
        </ProblemView>
      )}
      {saved && (
        <p className={saved.ok ? 'fix-ok' : 'fix-error'} role="status" data-testid="import-saved">
          {saved.text}
        </p>
      )}
      <SaveFindings
        findings={findings}
        onResult={(result, fixed) => {
          setSaved(result)
          if (result.ok) setFindings(findings.filter((f) => f.id !== fixed.id))
        }}
      />
    </form>
  )
}
