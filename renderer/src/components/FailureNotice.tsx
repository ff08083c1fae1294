import { useState } from 'react'
import type { Result } from '../../../app/contract/commands'
import type { ServerStateKind, ServerStatus } from '../../../app/contract/server-state'
import type { Warning } from '../../../app/contract/warnings'
import { applyFixAndStart, fixFlagsAndStart } from '../actions/failure-actions'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'
import { problem, type Problem } from '../../../app/contract/problem'
import { failureSentence } from '../../../app/contract/wording'
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
  const exited = useStatusStore((s) => s.status !== null && Boolean(s.status.lastExit?.reason) && FAILED.has(s.status.state))
  return refused || exited
}

/** "… Start it again" → "Use -lm none and start": a warning fix's label, then the start it leads to. */
const andStart = (label: string): string => `${label} and start`

/**
 * Why the last start or switch did not happen, said once (the banner leaves it
 * out) where the user looks: the header. The fix, where there is one, is the
 * button; the raw log lines sit behind "Details".
 */
export function FailureNotice(): React.JSX.Element | null {
  const refused = useSnapshotStore((s) => s.snapshot?.startFailure ?? null)
  const state = useStatusStore((s) => s.status?.state ?? null)
  const profileId = useStatusStore((s) => s.status?.profileId ?? null)
  const exit = useStatusStore((s) => s.status?.lastExit ?? null)
  const failed: Warning | null = useSnapshotStore((s) => s.snapshot?.warnings.find((w) => w.rule === SERVER_FAILED_RULE) ?? null)
  if (refused) {
    return (
      <div className="failure" data-testid="failure-notice">
        <ProblemView testId="failure" problem={problem('server', refused.sentence)} />
        {refused.fix && <FixButton label={refused.fix.label} action={() => fixFlagsAndStart(refused)} />}
      </div>
    )
  }
  if (!exit?.reason || state === null || !FAILED.has(state)) return null
  const code = exit.signal ? `signal ${exit.signal}` : exit.code !== null ? `exit code ${exit.code}` : null
  const fix = failed?.fix ?? null
  return (
    <div className="failure" data-testid="failure-notice">
      <ProblemView
        testId="failure"
        problem={problem('server', failureSentence(exit.reason, exit.hint), {
          details: [...(code ? [`llama-server ended with ${code}`] : []), ...exit.lastLines].join('\n'),
        })}
      />
      {fix && failed && profileId !== null && (
        <FixButton label={andStart(fix.label)} action={() => applyFixAndStart(failed.id, profileId)} />
      )}
    </div>
  )
}
