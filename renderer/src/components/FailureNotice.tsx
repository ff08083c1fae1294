import { useState } from 'react'
import type { Result } from '../../../app/contract/commands'
import type { ServerStateKind, ServerStatus } from '../../../app/contract/server-state'
import type { Warning } from '../../../app/contract/warnings'
import { applyFixAndStart, fixFlagsAndStart } from '../actions/failure-actions'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'
import type { Problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

const FAILED: ReadonlySet<ServerStateKind> = new Set(['errored', 'crashloop', 'backoff', 'stopped'])

/** The live advisor's warning for a failed launch: its fix is the header's button, so the banner leaves it out. */
export const SERVER_FAILED_RULE = 'live.server-failed'

function FixButton({ label, action }: { readonly label: string; readonly action: () => Promise<Result<ServerStatus>> }): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<Problem | null>(null)
  const run = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    try {
      const r = await action()
      if (!r.ok) setError(r.error)
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button type="button" className="primary" onClick={() => void run()} disabled={busy} data-testid="failure-fix">
        {busy ? 'Starting…' : label}
      </button>
      {error && <ProblemView problem={error} testId="failure-fix-error" />}
    </>
  )
}

/** Whether the header says why the last start failed (then no other place repeats it). */
export function useHeaderShowsFailure(): boolean {
  const refused = useSnapshotStore((s) => s.snapshot?.startFailure != null)
  const exited = useStatusStore((s) => s.status !== null && Boolean(s.status.lastExit?.problem) && FAILED.has(s.status.state))
  return refused || exited
}

function withoutFix({ fix: _runByTheNoticeButton, ...rest }: Problem): Problem {
  return rest
}

function withoutDetails({ details: _elsewhere, ...rest }: Problem): Problem {
  return rest
}

/** "… Start it again" → "Use -lm none and start": a warning fix's label, then the start it leads to. */
const andStart = (label: string): string => `${label} and start`

/**
 * Why the last start or switch did not happen, said once (the banner leaves it
 * out) where the user looks: the header. The fix, where there is one, is the
 * button; the raw log lines sit behind "Details".
 */
export function FailureNotice({ details = true }: { readonly details?: boolean } = {}): React.JSX.Element | null {
  const refused = useSnapshotStore((s) => s.snapshot?.startFailure ?? null)
  const state = useStatusStore((s) => s.status?.state ?? null)
  const profileId = useStatusStore((s) => s.status?.profileId ?? null)
  const exit = useStatusStore((s) => s.status?.lastExit ?? null)
  const failed: Warning | null = useSnapshotStore((s) => s.snapshot?.warnings.find((w) => w.rule === SERVER_FAILED_RULE) ?? null)
  const shown = (p: Problem): Problem => (details ? p : withoutDetails(p))
  if (refused) {
    return (
      <div className="failure" data-testid="failure-notice">
        {/* The fix stores the flags; here it also starts the profile, so the view's own button runs it. */}
        <ProblemView testId="failure" problem={shown(withoutFix(refused.problem))} />
        {refused.problem.fix && <FixButton label={refused.problem.fix.label} action={() => fixFlagsAndStart(refused)} />}
      </div>
    )
  }
  if (!exit?.problem || state === null || !FAILED.has(state)) return null
  const fix = failed?.fix ?? null
  return (
    <div className="failure" data-testid="failure-notice">
      <ProblemView testId="failure" problem={shown(exit.problem)} />
      {fix && failed && profileId !== null && (
        <FixButton label={andStart(fix.label)} action={() => applyFixAndStart(failed.id, profileId)} />
      )}
    </div>
  )
}
