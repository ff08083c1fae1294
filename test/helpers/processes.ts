import { isProcessAlive } from '../../app/lib/process/process-alive'

/** Whether a pid is still running (zombies of our own children count as gone once reaped). */
export const isRunning = isProcessAlive

export async function waitUntil(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Tracks every pid a test saw, to prove none is left behind. */
export class PidTracker {
  private readonly pids = new Set<number>()
  add(pid: number | null | undefined): void {
    if (pid) this.pids.add(pid)
  }
  alive(): number[] {
    return [...this.pids].filter(isRunning)
  }
  clear(): void {
    this.pids.clear()
  }
}
