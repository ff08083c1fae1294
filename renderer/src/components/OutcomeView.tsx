import type { Outcome } from '../lib/outcome'
import { ProblemView } from './ProblemView'

/** An action's answer: a confirmation as a status line, a failure as its problem (sentence, fix, Details). */
export function OutcomeView({ outcome, testId }: { readonly outcome: Outcome; readonly testId?: string }): React.JSX.Element {
  if (!outcome.ok) return <ProblemView problem={outcome.problem} testId={testId} alert={false} />
  return (
    <p className="fix-ok" role="status" data-testid={testId}>
      {outcome.text}
    </p>
  )
}
