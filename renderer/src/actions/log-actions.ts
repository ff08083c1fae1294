import { api } from '../stores/api'
import { replaceLogLines } from '../stores/log-store'

/** The log view's lines: main's own tail replaces the buffer (live batches append to it). */
export async function refreshLogs(maxLines = 5000): Promise<void> {
  replaceLogLines(await api().serverLogs(maxLines))
}

export function openLogsFolder(): Promise<void> {
  return api().shellOpenLogsFolder()
}
