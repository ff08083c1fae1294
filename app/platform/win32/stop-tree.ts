import { defaultTaskkillDeps, runTaskkill, type TaskkillDeps } from '../../lib/process/taskkill'
import { descendantsOf, windowsProcesses, type ParentLink } from './process-table'

/** What the Windows stop needs from the OS; tests inject fakes and run it on Linux. */
export interface WindowsStopDeps extends TaskkillDeps {
  /** Every process's parent link; null when the table cannot be read. */
  readonly processTable: () => readonly ParentLink[] | null
  /** TerminateProcess on one pid; false when it is gone or refused. */
  readonly terminate: (pid: number) => boolean
}

export interface WindowsStopOptions {
  /** taskkill normally answers in well under a second; past this it is abandoned. */
  readonly taskkillTimeoutMs: number
  /** How long to wait for the exit after each attempt. */
  readonly exitWaitMs: number
}

/** Worst case taskkill + two exit waits = 4.5 s, inside the 5 s a stop may take. */
export const DEFAULT_WINDOWS_STOP: WindowsStopOptions = { taskkillTimeoutMs: 2500, exitWaitMs: 1000 }

export function defaultWindowsStopDeps(): WindowsStopDeps {
  return {
    ...defaultTaskkillDeps(),
    processTable: () => windowsProcesses().entries(),
    terminate: (pid) => {
      try {
        return process.kill(pid) // Node on Windows: TerminateProcess, whatever the signal
      } catch {
        return false
      }
    },
  }
}

export interface WindowsStopReport {
  /** Whether the process was seen to exit. */
  readonly confirmed: boolean
  /** What was done, in words, for the log: "terminated with taskkill /T /F". */
  readonly detail: string
}

/**
 * Ends `pid` and everything it started: taskkill /T /F first (the whole tree
 * at once); when taskkill fails, hangs, or the process outlives it,
 * TerminateProcess on the process and on each descendant found by a Toolhelp
 * walk taken before anything was killed. Resolves within taskkillTimeoutMs +
 * 2 × exitWaitMs. No graceful step: see docs/windows-manual-checklist.md
 * ("Graceful stop") for why a Ctrl+C is not sent.
 */
export async function terminateWindowsTree(
  pid: number,
  exitedWithin: (ms: number) => Promise<boolean>,
  terminateRoot: () => void,
  deps: WindowsStopDeps,
  options: WindowsStopOptions = DEFAULT_WINDOWS_STOP,
): Promise<WindowsStopReport> {
  const descendants = descendantsOf(pid, deps.processTable() ?? [])
  const taskkill = await runTaskkill(pid, deps, options.taskkillTimeoutMs)
  if (taskkill.ok && (await exitedWithin(options.exitWaitMs))) return { confirmed: true, detail: 'terminated with taskkill /T /F' }
  terminateRoot()
  const ended = descendants.filter((child) => deps.terminate(child)).length
  const because = taskkill.ok ? `taskkill succeeded but the process was still running after ${options.exitWaitMs} ms` : taskkill.why
  const children = ended > 0 ? ` and ${ended} child process${ended === 1 ? '' : 'es'}` : ''
  const detail = `terminated with TerminateProcess${children} (${because})`
  if (await exitedWithin(options.exitWaitMs)) return { confirmed: true, detail }
  return { confirmed: false, detail: `${detail}, but no exit was seen within ${options.exitWaitMs} ms: pid ${pid} may still be running` }
}
