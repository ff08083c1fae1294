import { failedOutcome, type Outcome } from '../lib/outcome'
import { OutcomeView } from './OutcomeView'
import { useState } from 'react'
import { diagnosticsSummary, saveDiagnostics } from '../actions/diagnostics-actions'
import { problem } from '../../../app/contract/problem'

type Message = Outcome

/**
 * Settings → Diagnostics: what someone helping needs (versions, GPU, states, the active command, the log's end),
 * with keys, tokens and the user's name redacted by the core. Copy puts the one-screen summary on the clipboard;
 * Save writes the whole bundle as a zip where main's save dialog says.
 */
export function DiagnosticsSection(): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<Message | null>(null)
  const run = async (action: () => Promise<Message | null>): Promise<void> => {
    setBusy(true)
    setMessage(null)
    try {
      setMessage(await action())
    } finally {
      setBusy(false)
    }
  }
  const copy = (): Promise<Message | null> =>
    diagnosticsSummary().then(async (r) => {
      if (!r.ok) return failedOutcome(r.error)
      if (!navigator.clipboard)
        return failedOutcome(problem('internal', 'The clipboard is not available here: use Save diagnostics instead.'))
      await navigator.clipboard.writeText(r.value)
      return { ok: true, text: `Copied the summary (${r.value.trimEnd().split('\n').length} lines): paste it into your issue.` }
    })
  const save = (): Promise<Message | null> =>
    saveDiagnostics().then((r) => {
      if (!r.ok) return failedOutcome(r.error)
      return r.value === null ? null : { ok: true, text: `Saved ${r.value}.` } // null: the dialog was cancelled
    })
  return (
    <section className="diagnostics-section" aria-labelledby="diagnostics-heading" data-testid="diagnostics-section">
      <h2 id="diagnostics-heading">Diagnostics</h2>
      <p className="note">
        For asking for help: versions, the GPU, recent states and exits, your profiles, settings and the end of the server log. API keys,
        tokens and your user name are replaced by *** and &lt;user&gt;.
      </p>
      <div className="row">
        <button type="button" onClick={() => void run(copy)} disabled={busy} data-testid="diagnostics-copy">
          Copy diagnostics
        </button>
        <button type="button" onClick={() => void run(save)} disabled={busy} data-testid="diagnostics-save">
          Save diagnostics…
        </button>
      </div>
      {message && <OutcomeView outcome={message} testId="diagnostics-message" />}
    </section>
  )
}
