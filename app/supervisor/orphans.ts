import { isAlive } from './process-identity'
import type { PidFiles, PidRecord } from './pid-file'

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

function signal(pid: number, sig: NodeJS.Signals): void {
  for (const target of process.platform === 'win32' ? [pid] : [-pid, pid]) {
    try {
      process.kill(target, sig)
      return
    } catch {
      // try the next form
    }
  }
}

/** Stops llama-servers left behind by a supervisor that died; returns the records it stopped. */
export async function reapOrphans(pidFiles: PidFiles, graceMs = 3000): Promise<PidRecord[]> {
  const orphans = await pidFiles.findOrphans()
  for (const orphan of orphans) {
    signal(orphan.pid, 'SIGTERM')
    const deadline = Date.now() + graceMs
    while (isAlive(orphan.pid) && Date.now() < deadline) await sleep(50)
    if (isAlive(orphan.pid)) signal(orphan.pid, 'SIGKILL')
    while (isAlive(orphan.pid) && Date.now() < deadline + 2000) await sleep(50)
    await pidFiles.remove(orphan.ownerPid)
  }
  return orphans
}
