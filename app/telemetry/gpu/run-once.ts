import { spawn } from 'node:child_process'

export interface RunOnceResult {
  /** Exit code; null when killed (timeout) or never started. */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly timedOut: boolean
  /** Set when the program could not be started (ENOENT, EACCES…). */
  readonly spawnError: string | null
}

const MAX_OUTPUT = 1 << 20

/**
 * Runs a program once from an argument array (no shell, no console window on
 * Windows) with a hard timeout: after timeoutMs the child is SIGKILLed and the
 * promise resolves. Never rejects.
 */
export function runOnce(exe: string, args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<RunOnceResult> {
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let timedOut = false
    let settled = false
    const finish = (r: Omit<RunOnceResult, 'stdout' | 'stderr' | 'timedOut'>): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...r, stdout, stderr, timedOut })
    }
    const child = spawn(exe, [...args], { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, shell: false, env })
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += d
    })
    child.on('error', (err: NodeJS.ErrnoException) => finish({ code: null, spawnError: `${err.code ?? 'error'}: ${err.message}` }))
    child.on('close', (code) => finish({ code, spawnError: null }))
  })
}
