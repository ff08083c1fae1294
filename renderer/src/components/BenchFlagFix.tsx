import { useEffect, useState } from 'react'
import { applyFlagFixes, checkFlags } from '../actions/profile-actions'
import { useProfileStore } from '../stores/profile-store'
import type { Problem } from '../../../app/contract/problem'
import { failedOutcome, type Outcome } from '../lib/outcome'
import { OutcomeView } from './OutcomeView'

interface Fixable {
  readonly id: string
  readonly name: string
  readonly replacements: string
}

/**
 * After a bench refused for flags the binary rejects: the fix as a button per
 * profile (the same as `llama-tray profiles fix <id>`), not a trip to a terminal.
 */
export function BenchFlagFix({
  profileIds,
  error,
}: {
  readonly profileIds: readonly string[]
  readonly error: Problem
}): React.JSX.Element | null {
  const names = useProfileStore((s) => s.summary?.profiles ?? null)
  const [fixable, setFixable] = useState<readonly Fixable[]>([])
  const [done, setDone] = useState<Outcome | null>(null)
  useEffect(() => {
    let live = true
    void (async () => {
      const found: Fixable[] = []
      for (const id of profileIds) {
        const r = await checkFlags(id)
        if (!r.ok || r.value.length === 0 || r.value.some((p) => p.replacement === null)) continue
        const added = r.value.flatMap((p) => p.replacement ?? [])
        found.push({
          id,
          name: names?.find((p) => p.id === id)?.name ?? id,
          replacements: added.length > 0 ? added.join(' ') : `no ${r.value.map((p) => p.flag).join(' ')}`,
        })
      }
      if (live) setFixable(found)
    })()
    return () => {
      live = false
    }
  }, [profileIds, error, names])
  if (fixable.length === 0) return done ? <OutcomeView outcome={done} testId="bench-flag-fixed" /> : null
  const fix = async (f: Fixable): Promise<void> => {
    const r = await applyFlagFixes(f.id)
    setDone(r.ok ? { ok: true, text: `Stored ${f.replacements} in “${f.name}”. Run the bench again.` } : failedOutcome(r.error))
  }
  return (
    <div className="row" data-testid="bench-flag-fix">
      {fixable.map((f) => (
        <button key={f.id} type="button" className="primary" onClick={() => void fix(f)} data-testid="bench-flag-fix-button">
          Use {f.replacements} in “{f.name}”
        </button>
      ))}
    </div>
  )
}
