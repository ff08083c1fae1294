import { asSentence } from '../../../app/contract/wording'

/**
 * One error as one sentence: the cause, what to do about it, and the raw
 * detail (log lines, the original message) folded behind "Details".
 */
export function ErrorLine({
  cause,
  fix,
  details,
  testId,
  alert = true,
}: {
  readonly cause: string
  readonly fix?: string | null
  readonly details?: string | readonly string[] | null
  readonly testId?: string
  readonly alert?: boolean
}): React.JSX.Element {
  const lines = details === null || details === undefined ? [] : typeof details === 'string' ? [details] : details
  return (
    <div className="error-line" role={alert ? 'alert' : undefined} data-testid={testId}>
      <p className="error-text">
        <strong className="error-cause">{asSentence(cause)}</strong>
        {fix && <span className="hint"> {asSentence(fix)}</span>}
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
