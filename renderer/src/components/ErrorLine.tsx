/**
 * One error as one sentence: the cause, what to do about it, and the raw
 * detail (log lines, the original message) folded behind "Details".
 */
export function ErrorLine({ cause, fix, details, testId, alert = true }: { readonly cause: string; readonly fix?: string | null; readonly details?: string | readonly string[] | null; readonly testId?: string; readonly alert?: boolean }): React.JSX.Element {
  const lines = details === null || details === undefined ? [] : typeof details === 'string' ? [details] : details
  return (
    <div className="error-line" role={alert ? 'alert' : undefined} data-testid={testId}>
      {/* The texts stay verbatim (CSS capitalises the first letter): tests and users can search for them. */}
      <p className="error-text">
        <strong className="error-cause">{sentence(cause)}</strong>
        {fix && <span className="hint"> {sentence(fix)}</span>}
      </p>
      {lines.length > 0 && (
        <details className="error-details">
          <summary>Details</summary>
          <pre>{lines.join('\n')}</pre>
        </details>
      )}
    </div>
  )
}

/** "the model is missing" → "the model is missing." (a full stop, so cause and fix read as sentences). */
function sentence(text: string): string {
  const t = text.trim()
  return t === '' || /[.!?…)]$/.test(t) ? t : `${t}.`
}
