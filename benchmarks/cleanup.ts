import type { ChildProcess } from 'node:child_process'

/**
 * What a benchmark must undo if the run is interrupted (SIGINT/SIGTERM): its
 * llama-server children and supervisors. run.ts calls runCleanups() on a signal.
 */
const cleanups = new Set<() => Promise<void> | void>()

export function onCleanup(fn: () => Promise<void> | void): () => void {
  cleanups.add(fn)
  return () => void cleanups.delete(fn)
}

/** Kills `child` on interruption; forgets it once it has exited. */
export function trackChild(child: ChildProcess): void {
  const off = onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  child.once('exit', off)
}

export async function runCleanups(): Promise<void> {
  for (const fn of [...cleanups]) {
    try {
      await fn()
    } catch {
      // keep cleaning up the rest
    }
  }
  cleanups.clear()
}
