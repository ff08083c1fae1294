import { useState } from 'react'
import type { WarningFix, WarningWords } from '../../../app/contract/warnings'

/**
 * A warning's words, the same in the dashboard's banner and the popover: the headline in view and, where there is a
 * reason, a "Why?" button (keyboard-reachable, aria-expanded) that shows the reason after the headline; "Less" hides it.
 */
export function WarningWordsView({ words, className }: { readonly words: WarningWords; readonly className: string }): React.JSX.Element {
  const [open, setOpen] = useState(false)
  return (
    <span className={className}>
      {words.headline}
      {words.reason && (
        <>
          {' '}
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="warning-why">
            {open ? 'Less' : 'Why?'}
          </button>
          {open && <span className="warning-rest"> {words.reason}</span>}
        </>
      )}
    </span>
  )
}

/** What a fix costs where it is known ("about 3 tok/s slower (estimate)"), beside its button; nothing otherwise. */
export function FixCost({ fix }: { readonly fix: WarningFix }): React.JSX.Element | null {
  return fix.cost ? (
    <span className="fix-cost" data-testid="warning-fix-cost">
      {fix.cost}
    </span>
  ) : null
}
