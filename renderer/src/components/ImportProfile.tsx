import { useState } from 'react'
import { importProfile } from '../actions/profile-actions'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

/** Creates a profile from a pasted llama-server command (stored, not run). */
export function ImportProfile({ onImported }: { readonly onImported: (id: string) => void }): React.JSX.Element {
  const [text, setText] = useState('')
  const [name, setName] = useState('')
  const [error, setError] = useState<Problem | null>(null)
  const submit = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    setError(null)
    const r = await importProfile(text, name.trim() || null)
    if (!r.ok) return setError(r.error)
    setText('')
    setName('')
    onImported(r.value.id)
  }
  return (
    <form className="import" onSubmit={(e) => void submit(e)} aria-label="Import a command">
      <label>
        Paste a llama-server command
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={3}
          spellCheck={false}
          placeholder="llama-server -m model.gguf --n-cpu-moe 30 -c 32768"
          data-testid="import-command"
        />
      </label>
      <div className="row">
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Name (optional)"
          aria-label="Profile name"
          data-testid="import-name"
        />
        <button type="submit" disabled={!text.trim()} data-testid="import-submit">
          Import
        </button>
      </div>
      {error && <ProblemView problem={error} />}
    </form>
  )
}
