import { spawn } from 'node:child_process'
import { LEADS_ITS_GROUP, abandonChild, signalProcessGroup } from './process-group'

export interface RunOnceResult {
  /** Exit code; null when killed (timeout) or never started. */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** The program itself did not exit within the timeout (it was killed with its group). */
  readonly timedOut: boolean
  /** Set when the program could not be started (ENOENT, EACCES…). */
  readonly spawnError: string | null
}

export interface RunOnceOptions {
  /** Characters kept of each stream (default 1 MiB); the rest is read and dropped. */
  readonly maxOutputChars?: number
}

const MAX_OUTPUT = 1 << 20

/**
 * Runs a program once from an argument array (no shell, no console window on
 * Windows) and resolves by timeoutMs at the latest. Never rejects.
 *
 * At the timeout the program's whole process group is SIGKILLed (Windows: its
 * tree, through taskkill /T /F) and we stop reading its pipes, so neither a
 * grandchild that inherited stdout nor a program stuck in the kernel (a hung
 * GPU driver) can keep the promise, or the process, waiting.
 */
export function runOnce(
  exe: string,
  args: readonly string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
  options: RunOnceOptions = {},
): Promise<RunOnceResult> {
  const max = options.maxOutputChars ?? MAX_OUTPUT
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let exitCode: number | null = null
    let exited = false
    let settled = false
    const finish = (r: Omit<RunOnceResult, 'stdout' | 'stderr'>): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...r, stdout, stderr })
    }
    const child = spawn(exe, [...args], { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, shell: false, env, ...LEADS_ITS_GROUP })
    const timer = setTimeout(() => {
      // Also when the program has exited but a descendant still holds its pipes: the group outlives
      // its leader while any member lives, so its id cannot have been reused yet.
      signalProcessGroup(child, 'SIGKILL')
      abandonChild(child)
      finish({ code: exitCode, timedOut: !exited, spawnError: null })
    }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < max) stdout += d
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < max) stderr += d
    })
    child.on('exit', (code) => {
      exited = true
      exitCode = code
    })
    child.on('error', (err: NodeJS.ErrnoException) => {
      finish({ code: null, timedOut: false, spawnError: `${err.code ?? 'error'}: ${err.message}` })
    })
    child.on('close', (code) => finish({ code, timedOut: false, spawnError: null }))
  })
}
