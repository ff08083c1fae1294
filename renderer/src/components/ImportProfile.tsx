import { useState } from 'react'
import type { ImportCommandOptions, ImportOffer } from '../../../app/contract/import-wording'
import { importProfile } from '../actions/profile-actions'

/** A refused import: the core's sentence, and the override it offers (the CLI's --force and --replace as buttons). */
interface Refusal {
  readonly text: string
  readonly offer: ImportOffer | null
}

const OVERRIDE_LABEL: Readonly<Record<ImportOffer, string>> = { force: 'Import anyway', replace: 'Replace' }

/** Creates a profile from a pasted llama-server command (stored, not run). */
export function ImportProfile({ onImported }: { readonly onImported: (id: string) => void }): React.JSX.Element {
  const [text, setText] = useState('')
  const [name, setName] = useState('')
  const [refusal, setRefusal] = useState<Refusal | null>(null)
  const [notices, setNotices] = useState<readonly string[]>([])
  // What the user already chose to override, kept while another refusal follows (a missing model and a name taken).
  const [overrides, setOverrides] = useState<ImportCommandOptions>({})
  const run = async (options: ImportCommandOptions): Promise<void> => {
    setRefusal(null)
    setNotices([])
    const r = await importProfile(text, name.trim() || null, options)
    if (!r.ok) {
      setOverrides(options)
      return setRefusal({ text: r.error, offer: r.offer ?? null })
    }
    setText('')
    setName('')
    setOverrides({})
    // What the gate changed to fit the binary, told once.
    setNotices(r.value.notices ?? [])
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
        <div className="row" role="alert">
          <p className="fix-error" data-testid="import-error">
            {refusal.text}
          </p>
          {refusal.offer && (
            <button
              type="button"
              onClick={() => void run({ ...overrides, [refusal.offer as ImportOffer]: true })}
              data-testid={`import-${refusal.offer}`}
            >
              {OVERRIDE_LABEL[refusal.offer]}
            </button>
          )}
        </div>
      )}
      {notices.length > 0 && (
        <p className="fix-ok" role="status" data-testid="import-notices">
          {notices.join(' ')}
        </p>
      )}
    </form>
  )
}
