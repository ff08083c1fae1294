import { isAlive } from './process-identity'
import type { PidFiles, PidRecord } from './pid-file'
import { defaultWindowsStopDeps, terminateWindowsTree, type WindowsStopDeps } from '../platform/win32/stop-tree'

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

function signal(pid: number, sig: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, sig)
      return
    } catch {
      // try the next form
    }
  }
}

async function goneWithin(pid: number, ms: number, alive: (pid: number) => boolean): Promise<boolean> {
  const deadline = Date.now() + ms
  while (alive(pid) && Date.now() < deadline) await sleep(50)
  return !alive(pid)
}

export interface ReapOptions {
  readonly graceMs?: number
  readonly platform?: NodeJS.Platform
  readonly windows?: WindowsStopDeps
  readonly isAlive?: (pid: number) => boolean
}

/**
 * Stops llama-servers left behind by a supervisor that died; returns the
 * records it stopped, each with what was done. POSIX: SIGTERM to the group,
 * SIGKILL after graceMs. Windows: the same tree termination as a normal stop.
 */
export async function reapOrphans(pidFiles: PidFiles, options: ReapOptions = {}): Promise<{ record: PidRecord; detail: string }[]> {
  const graceMs = options.graceMs ?? 3000
  const alive = options.isAlive ?? isAlive
  const reaped: { record: PidRecord; detail: string }[] = []
  for (const orphan of await pidFiles.findOrphans()) {
    let detail: string
    if ((options.platform ?? process.platform) === 'win32') {
      const deps = options.windows ?? defaultWindowsStopDeps()
      const report = await terminateWindowsTree(
        orphan.pid,
        (ms) => goneWithin(orphan.pid, ms, alive),
        () => deps.terminate(orphan.pid),
        deps,
      )
      detail = report.detail
    } else {
      signal(orphan.pid, 'SIGTERM')
      detail = 'stopped'
      if (!(await goneWithin(orphan.pid, graceMs, alive))) {
        signal(orphan.pid, 'SIGKILL')
        detail = 'killed'
        await goneWithin(orphan.pid, 2000, alive)
      }
    }
    await pidFiles.remove(orphan.ownerPid)
    reaped.push({ record: orphan, detail })
  }
  return reaped
}
