import { useEffect, useMemo, useRef, useState } from 'react'
import { filterLines, isFailureLine } from '../lib/log-lines'
import { openLogsFolder, refreshLogs } from '../actions/log-actions'
import { useLogStore } from '../stores/log-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import type { PinnedServerView } from '../../../app/contract/snapshot'

/** Rendering more than this many lines costs more than it shows; the rest is in the log file. */
const SHOWN = 1500
const NO_PINNED: readonly PinnedServerView[] = []
const NO_LINES: readonly string[] = []

export function LogsView(): React.JSX.Element {
  const pinned = useSnapshotStore((s) => s.snapshot?.pinned ?? NO_PINNED)
  // Which server's log: the active one's (null) or a pinned profile's; one that is no longer pinned falls back to the active one.
  const [chosen, setChosen] = useState<string | null>(null)
  const source = chosen !== null && pinned.some((p) => p.profileId === chosen) ? chosen : null
  const lines = useLogStore((s) => (source === null ? s.lines : (s.pinned[source] ?? NO_LINES)))
  const [filter, setFilter] = useState('')
  const [failuresOnly, setFailuresOnly] = useState(false)
  const [follow, setFollow] = useState(true)
  const [copied, setCopied] = useState(false)
  const box = useRef<HTMLPreElement>(null)

  // Main's own tail when the view opens or shows another server; live batches append to it.
  useEffect(() => {
    void refreshLogs(undefined, source)
  }, [source])

  const shown = useMemo(() => filterLines(lines, filter, failuresOnly).slice(-SHOWN), [lines, filter, failuresOnly])

  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight
  }, [shown, follow])

  const copy = async (): Promise<void> => {
    await navigator.clipboard?.writeText(shown.join('\n'))
    setCopied(true)
    setTimeout(() => setCopied(false), 1500)
  }

  return (
    <section className="logs-view" aria-label="Server log">
      <div className="row toolbar">
        {pinned.length > 0 && (
          <select
            value={source ?? ''}
            onChange={(e) => setChosen(e.target.value === '' ? null : e.target.value)}
            aria-label="Which server's log"
            data-testid="log-server"
          >
            <option value="">Active profile (llama-server.log)</option>
            {pinned.map((p) => (
              <option key={p.profileId} value={p.profileId}>
                {`Pinned: ${p.name} (llama-server-${p.profileId}.log)`}
              </option>
            ))}
          </select>
        )}
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter (all words)"
          aria-label="Filter the log"
          data-testid="log-filter"
        />
        <label className="check">
          <input
            type="checkbox"
            checked={failuresOnly}
            onChange={(e) => setFailuresOnly(e.target.checked)}
            data-testid="log-failures-only"
          />
          Failures only
        </label>
        <label className="check">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} />
          Follow
        </label>
        <button type="button" onClick={() => void copy()} data-testid="log-copy">
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={() => void openLogsFolder()}>
          Open folder
        </button>
      </div>
      <pre ref={box} className="log" data-testid="log-lines" tabIndex={0}>
        {shown.length === 0 ? <span className="note">{lines.length === 0 ? 'No log yet.' : 'No line matches.'}</span> : null}
        {shown.map((line, i) => (
          <span key={i} className={isFailureLine(line) ? 'log-line failure-line' : 'log-line'}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      <p className="note">
        {shown.length} of {lines.length} lines
      </p>
    </section>
  )
}
