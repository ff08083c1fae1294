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

/** A fix's label with its flags kept on one line: "Move more experts to the CPU" may wrap, "(--n-cpu-moe 38)" never breaks at a hyphen. */
export function FixLabel({ label }: { readonly label: string }): React.JSX.Element {
  const m = /^(.*\S)\s+(\([^()]*\))$/.exec(label)
  // A long one may wrap: kept whole, it would push past a 360 px window.
  if (!m || m[2]!.length > 24) return <>{label}</>
  return (
    <>
      {m[1]} <span className="nowrap">{m[2]}</span>
    </>
  )
}
