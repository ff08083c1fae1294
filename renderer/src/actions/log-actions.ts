import { api } from '../stores/api'
import { replaceLogLines, replacePinnedLogLines } from '../stores/log-store'

/** The log view's lines: main's own tail replaces the buffer (live batches append to it); a pinned profile's server, by its id. */
export async function refreshLogs(maxLines = 5000, pinnedProfileId: string | null = null): Promise<void> {
  if (pinnedProfileId === null) replaceLogLines(await api().serverLogs(maxLines))
  else replacePinnedLogLines(pinnedProfileId, await api().serverPinnedLogs(pinnedProfileId, maxLines))
}

export function openLogsFolder(): Promise<void> {
  return api().shellOpenLogsFolder()
}
