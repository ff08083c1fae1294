import { readdir, readFile } from 'node:fs/promises'
import type { SpawnedProcess } from './process-tree'

/** How long the server's output may stay open after its exit: its last lines come within milliseconds. */
export const PIPE_GRACE_MS = 2000

/** Every descendant of pid now (Linux: from /proc; elsewhere none), taken before a stop: after the leader's exit an
 * escaped grandchild is re-parented and no tree walk finds it. */
export async function descendantsOf(pid: number): Promise<number[]> {
  if (process.platform !== 'linux') return []
  const parentOf = new Map<number, number>()
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    const child = Number(entry)
    if (!Number.isInteger(child)) continue
    const stat = await readFile(`/proc/${child}/stat`, 'utf8').catch(() => null)
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = stat === null ? NaN : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (Number.isInteger(ppid)) parentOf.set(child, ppid)
  }
  const found: number[] = []
  const walk = (parent: number): void => {
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent || found.includes(child)) continue
      found.push(child)
      walk(child)
    }
  }
  walk(pid)
  return found
}

/**
 * After the server's own exit: waits for its output to close only PIPE_GRACE_MS, then ends what is left of its
 * tree (`tree`, taken before the stop: a grandchild in its own session escapes the process group) and lets go of
 * our ends of the pipes, so a stop always ends and `run --duration` returns. Resolves to the pids it killed.
 */
export async function releasePipes(proc: SpawnedProcess, tree: readonly number[], graceMs = PIPE_GRACE_MS): Promise<number[]> {
  const closed = await Promise.race([
    proc.closed.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
  ])
  if (closed) return []
  const killed: number[] = []
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL')
      killed.push(pid)
    } catch {
      // gone already (the group's SIGKILL took it)
    }
  }
  proc.child.stdout?.destroy()
  proc.child.stderr?.destroy()
  return killed
}
