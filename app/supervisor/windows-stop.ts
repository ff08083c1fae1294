import { spawn, type ChildProcess } from 'node:child_process'
import { win32 } from 'node:path'
import { descendantsOf, windowsProcesses, type ParentLink } from './windows-process-table'

/** What the Windows stop needs from the OS; tests inject fakes and run it on Linux. */
export interface WindowsStopDeps {
  /** Starts taskkill.exe (never through a shell). */
  readonly spawn: (file: string, args: readonly string[], options: { windowsHide: true; shell: false; stdio: ['ignore', 'pipe', 'pipe'] }) => ChildProcess
  /** For %SystemRoot%. */
  readonly env: NodeJS.ProcessEnv
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
    spawn: (file, args, options) => spawn(file, [...args], options),
    env: process.env,
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

/** %SystemRoot%\System32\taskkill.exe: an absolute path, so no PATH lookup and no cmd.exe. */
export function taskkillPath(env: NodeJS.ProcessEnv): string {
  return win32.join(env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows', 'System32', 'taskkill.exe')
}

type TaskkillResult = { readonly ok: true } | { readonly ok: false; readonly why: string }

function firstLine(text: string): string {
  return text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? ''
}

/** `taskkill /PID pid /T /F`, resolved within timeoutMs whatever taskkill does. */
export function runTaskkill(pid: number, deps: WindowsStopDeps, timeoutMs: number): Promise<TaskkillResult> {
  return new Promise((resolve) => {
    let child: ChildProcess
    try {
      child = deps.spawn(taskkillPath(deps.env), ['/PID', String(pid), '/T', '/F'], { windowsHide: true, shell: false, stdio: ['ignore', 'pipe', 'pipe'] })
    } catch (err) {
      resolve({ ok: false, why: `could not start taskkill: ${err instanceof Error ? err.message : String(err)}` })
      return
    }
    let output = ''
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr?.on('data', (d: Buffer) => (output = d.toString() + output))
    let settled = false
    const finish = (result: TaskkillResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(result)
    }
    const timer = setTimeout(() => {
      child.kill()
      finish({ ok: false, why: `taskkill did not finish within ${(timeoutMs / 1000).toFixed(1)} s` })
    }, timeoutMs)
    child.once('error', (err) => finish({ ok: false, why: `could not start taskkill: ${err.message}` }))
    child.once('exit', (code) => {
      // Let the last output arrive for the message; the exit code decides.
      setImmediate(() => finish(code === 0 ? { ok: true } : { ok: false, why: `taskkill exited with ${code ?? 'no code'}${firstLine(output) ? `: ${firstLine(output)}` : ''}` }))
    })
  })
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
