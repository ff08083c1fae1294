import { spawn, type ChildProcess } from 'node:child_process'
import treeKill from 'tree-kill'
import { defaultWindowsStopDeps, terminateWindowsTree, type WindowsStopDeps, type WindowsStopOptions } from '../platform/win32/stop-tree'
import { problem, type Problem } from '../contract/problem'

export interface ExitStatus {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface SpawnedProcess {
  readonly child: ChildProcess
  readonly pid: number
  /** Resolves once the process has exited (never rejects). */
  readonly exited: Promise<ExitStatus>
  /** Resolves once it has exited and its output streams are closed (a grandchild may hold them open). */
  readonly closed: Promise<void>
  hasExited(): boolean
}

/** Thrown when the OS refuses to start the process (ENOENT, EACCES…). */
export class SpawnError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
    this.name = 'SpawnError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('server', this.message, { details: this.code ?? null })
  }
}

/**
 * Starts a process from an argument array, never through a shell. On POSIX it
 * leads its own process group, so the whole group can be signalled and the
 * terminal's Ctrl+C reaches only us (we then stop it cleanly). stdin 'pipe' is
 * llama-server's child channel (child-channel.ts): it closes when we die.
 */
export function spawnProcess(
  exe: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd?: string,
  stdin: 'ignore' | 'pipe' = 'ignore',
): Promise<SpawnedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(exe, [...args], {
      env,
      cwd,
      shell: false,
      detached: process.platform !== 'win32',
      windowsHide: true,
      stdio: [stdin, 'pipe', 'pipe'],
    })
    // A write to a server that has just exited fails with EPIPE: the exit itself is what counts.
    child.stdin?.on('error', () => {})
    let exitedFlag = false
    const exited = new Promise<ExitStatus>((res) => {
      child.once('exit', (code, signal) => {
        exitedFlag = true
        res({ code, signal })
      })
    })
    const closed = new Promise<void>((res) => child.once('close', () => res()))
    child.once('error', (err: NodeJS.ErrnoException) => {
      if (child.pid === undefined) reject(new SpawnError(`could not start ${exe}: ${err.message}`, err.code))
    })
    child.once('spawn', () => {
      resolve({ child, pid: child.pid as number, exited, closed, hasExited: () => exitedFlag })
    })
  })
}

export interface StopOptions {
  /** Wait after the first signal before sending the second (llama-server's handler can deadlock). */
  readonly graceMs: number
  /** Wait after the second signal before killing the whole tree. */
  readonly secondGraceMs: number
  /** Windows only: taskkill's timeout and the exit waits (defaults: DEFAULT_WINDOWS_STOP). */
  readonly windows?: WindowsStopOptions
}

export const DEFAULT_STOP: StopOptions = { graceMs: 3000, secondGraceMs: 2500 }

/**
 * POSIX: 'graceful' (first signal), 'second-signal', 'killed' (SIGKILL).
 * Windows: 'terminated' (taskkill or TerminateProcess), 'unconfirmed' (no exit
 * seen within the bound). 'graceful' also when it had exited already.
 */
export type StopOutcome = 'graceful' | 'second-signal' | 'killed' | 'terminated' | 'unconfirmed'

export interface StopResult {
  readonly outcome: StopOutcome
  /** code and signal null when the exit was not seen ('unconfirmed'). */
  readonly exit: ExitStatus
  /** What happened, for the log: "stopped", "terminated with taskkill /T /F"… */
  readonly detail: string
}

const POSIX_DETAIL: Record<'graceful' | 'second-signal' | 'killed', string> = {
  graceful: 'stopped',
  'second-signal': 'stopped after a second signal',
  killed: 'killed after it ignored two signals',
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      // already gone
    }
  }
}

/** POSIX only (tree-kill walks with ps); on Windows it would exec taskkill through cmd.exe. */
function killTree(pid: number): Promise<void> {
  return new Promise((resolve) => treeKill(pid, 'SIGKILL', () => resolve()))
}

function timeout(ms: number): Promise<'timeout'> {
  return new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref())
}

/**
 * Stops a process and everything it started, and resolves once it has exited
 * (Windows: or once the bound has passed, as 'unconfirmed'). POSIX: SIGTERM;
 * SIGINT after graceMs (a second signal makes llama-server exit at once);
 * SIGKILL to the tree and the group after secondGraceMs. Windows has no
 * per-process Ctrl+C: the tree is terminated at once (see app/platform/win32/stop-tree.ts).
 */
export async function stopProcessTree(
  proc: SpawnedProcess,
  options: StopOptions = DEFAULT_STOP,
  platform: NodeJS.Platform = process.platform,
  windowsDeps?: WindowsStopDeps,
): Promise<StopResult> {
  if (platform === 'win32') return stopWindows(proc, options, windowsDeps ?? defaultWindowsStopDeps())
  let outcome: 'graceful' | 'second-signal' | 'killed' = 'graceful'
  if (!proc.hasExited()) {
    signalGroup(proc.pid, 'SIGTERM')
    // A stopped process (SIGSTOP: the watchdog's frozen server) holds the SIGTERM until it is continued.
    signalGroup(proc.pid, 'SIGCONT')
    if ((await Promise.race([proc.exited, timeout(options.graceMs)])) === 'timeout') {
      outcome = 'second-signal'
      signalGroup(proc.pid, 'SIGINT')
      if ((await Promise.race([proc.exited, timeout(options.secondGraceMs)])) === 'timeout') {
        outcome = 'killed'
        await killTree(proc.pid)
        signalGroup(proc.pid, 'SIGKILL')
      }
    }
  }
  const exit = await proc.exited
  // Descendants that outlived the leader (a helper, a grandchild) are still in its group.
  try {
    process.kill(-proc.pid, 'SIGKILL')
  } catch {
    // the group is empty: nothing left behind
  }
  return { outcome, exit, detail: POSIX_DETAIL[outcome] }
}

async function stopWindows(proc: SpawnedProcess, options: StopOptions, deps: WindowsStopDeps): Promise<StopResult> {
  if (proc.hasExited()) return { outcome: 'graceful', exit: await proc.exited, detail: 'had already exited' }
  const exitedWithin = async (ms: number): Promise<boolean> => (await Promise.race([proc.exited, timeout(ms)])) !== 'timeout'
  const report = await terminateWindowsTree(proc.pid, exitedWithin, () => proc.child.kill(), deps, options.windows)
  if (!report.confirmed) return { outcome: 'unconfirmed', exit: { code: null, signal: null }, detail: report.detail }
  return { outcome: 'terminated', exit: await proc.exited, detail: report.detail }
}
