import { create } from 'zustand'

/** Enough for a failed load's story; older lines are in the log file. */
export const MAX_LOG_LINES = 5000

interface LogState {
  /** The active server's log. */
  readonly lines: readonly string[]
  /** Each pinned profile's server log, by profile id (filled once the log view shows it, then live). */
  readonly pinned: Readonly<Record<string, readonly string[]>>
}

export const useLogStore = create<LogState>()(() => ({ lines: [], pinned: {} }))

const appended = (lines: readonly string[], batch: readonly string[]): readonly string[] =>
  lines.length + batch.length > MAX_LOG_LINES ? [...lines, ...batch].slice(-MAX_LOG_LINES) : [...lines, ...batch]

export function appendLogLines(batch: readonly string[]): void {
  useLogStore.setState({ lines: appended(useLogStore.getState().lines, batch) })
}

/** Replaces the buffer with main's own tail (when the log view opens). */
export function replaceLogLines(lines: readonly string[]): void {
  useLogStore.setState({ lines: lines.slice(-MAX_LOG_LINES) })
}

export function appendPinnedLogLines(profileId: string, batch: readonly string[]): void {
  const pinned = useLogStore.getState().pinned
  useLogStore.setState({ pinned: { ...pinned, [profileId]: appended(pinned[profileId] ?? [], batch) } })
}

/** Replaces a pinned server's buffer with main's own tail (when the log view shows it). */
export function replacePinnedLogLines(profileId: string, lines: readonly string[]): void {
  useLogStore.setState({ pinned: { ...useLogStore.getState().pinned, [profileId]: lines.slice(-MAX_LOG_LINES) } })
}
