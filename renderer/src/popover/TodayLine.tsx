import { useEffect, useState } from 'react'
import type { HistoryOverview } from '../../../app/contract/history'
import { historyOverview } from '../actions/history-actions'
import { useSnapshotStore } from '../stores/snapshot-store'

/** Today's tokens from the usage history, asked again when a request finishes; shown once today has any. */
export function TodayLine(): React.JSX.Element | null {
  const lastRequest = useSnapshotStore((s) => s.snapshot?.generation?.last?.time ?? null)
  const [today, setToday] = useState<HistoryOverview['today'] | null>(null)
  useEffect(() => {
    let live = true
    void historyOverview(1).then(
      (o) => live && setToday(o.today),
      () => {},
    )
    return () => {
      live = false
    }
  }, [lastRequest])
  if (!today || today.requests === 0) return null
  return (
    <p className="pop-line" data-testid="pop-today">
      <span className="pop-key">Today</span>{' '}
      <span className="pop-value">
        {today.generatedTokens.toLocaleString('en-US')} tokens generated in {today.requests.toLocaleString('en-US')} request
        {today.requests === 1 ? '' : 's'}
      </span>
    </p>
  )
}
