import type { ChildProcess } from 'node:child_process'
import { defaultTaskkillDeps, runTaskkill } from './taskkill'

/**
 * Spawn option that makes a POSIX child lead its own process group, so it and
 * whatever it starts can be killed together (`kill(-pid)`). Not on Windows,
 * where `detached` means a console of its own; taskkill /T walks the tree there.
 */
export const LEADS_ITS_GROUP: { readonly detached: boolean } = { detached: process.platform !== 'win32' }

/** Upper bound for taskkill when a one-shot child is killed on Windows. */
const TASKKILL_TIMEOUT_MS = 2500

/**
 * Sends `signal` to the child's whole process group (spawned with
 * LEADS_ITS_GROUP). Falls back to the child alone when it leads no group.
 * On Windows every signal terminates: SIGKILL ends the tree through taskkill /T /F
 * (then TerminateProcess on the child if taskkill fails), others the child alone.
 */
export function signalProcessGroup(child: ChildProcess, signal: NodeJS.Signals, platform: NodeJS.Platform = process.platform): void {
  const pid = child.pid
  if (pid === undefined) return
  if (platform === 'win32') {
    if (signal !== 'SIGKILL') {
      child.kill()
      return
    }
    void runTaskkill(pid, defaultTaskkillDeps(), TASKKILL_TIMEOUT_MS).then((r) => {
      if (!r.ok && child.exitCode === null && child.signalCode === null) child.kill()
    })
    return
  }
  try {
    process.kill(-pid, signal)
  } catch {
    try {
      child.kill(signal)
    } catch {
      // already gone
    }
  }
}

/**
 * Stops waiting for a child: closes our ends of its pipes and lets the event
 * loop exit without it. A grandchild that inherited stdout (or a process stuck
 * in the driver, which not even SIGKILL ends until the call returns) otherwise
 * holds 'close', and everything awaiting it, forever.
 */
export function abandonChild(child: ChildProcess): void {
  child.stdout?.destroy()
  child.stderr?.destroy()
  child.unref()
}

/** "0.3 s", "5 s", "12.5 s": a timeout for a sentence. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`
}
