import { create } from 'zustand'

/** Enough for a failed load's story; older lines are in the log file. */
export const MAX_LOG_LINES = 5000

interface LogState {
  readonly lines: readonly string[]
}

export const useLogStore = create<LogState>()(() => ({ lines: [] }))

export function appendLogLines(batch: readonly string[]): void {
  const lines = useLogStore.getState().lines
  const next = lines.length + batch.length > MAX_LOG_LINES ? [...lines, ...batch].slice(-MAX_LOG_LINES) : [...lines, ...batch]
  useLogStore.setState({ lines: next })
}

/** Replaces the buffer with main's own tail (when the log view opens). */
export function replaceLogLines(lines: readonly string[]): void {
  useLogStore.setState({ lines: lines.slice(-MAX_LOG_LINES) })
}
