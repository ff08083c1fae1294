import type { Result } from '../../../app/contract/commands'
import type { HistoryOverview } from '../../../app/contract/history'
import { api } from '../stores/api'

/** The History view's data: the last `days` days of the usage history. */
export function historyOverview(days: number): Promise<HistoryOverview> {
  return api().historyOverview({ sinceMs: Date.now() - days * 86_400_000 })
}

/** Main's save dialog, then every request in `format`: the path, or null when the user cancelled. */
export function exportHistory(format: 'csv' | 'json' | 'md'): Promise<Result<string | null>> {
  return api().historyExport(format)
}
