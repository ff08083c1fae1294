import { exitCommandLine } from './child-channel'
import type { SpawnedProcess } from './process-tree'

/**
 * The first stop attempt for a ready server with the child channel: the exit command on its stdin, then
 * EOF. Resolves true when it exited within graceMs; false leaves it to the usual stop (signals, taskkill),
 * which then finds the stdin already closed (after a signal llama-server waits for that EOF before it exits).
 */
export async function stopThroughChannel(proc: SpawnedProcess, graceMs: number): Promise<boolean> {
  const stdin = proc.child.stdin
  if (proc.hasExited()) return true
  if (!stdin || stdin.writableEnded || stdin.destroyed) return false
  stdin.end(exitCommandLine())
  let timer: NodeJS.Timeout | undefined
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs)
  })
  const exited = await Promise.race([proc.exited.then(() => true as const), gaveUp])
  clearTimeout(timer)
  return exited
}

/** Closes the channel's stdin (no-op without one): a ready server then exits on its own; before a signal, so its exit is not held up. */
export function closeChannel(proc: SpawnedProcess): void {
  const stdin = proc.child.stdin
  if (stdin && !stdin.writableEnded && !stdin.destroyed) stdin.end()
}
