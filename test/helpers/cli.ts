import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { CLI } from './paths'

export interface CliResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export function assertCliBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does it first)`)
}

/** Runs the built CLI as a real process. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<CliResult>; stdoutLines: string[]; stderrLines: string[] } {
  assertCliBuilt()
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const stdoutLines: string[] = []
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    stdout += c
    stdoutLines.splice(0, stdoutLines.length, ...stdout.split('\n').filter(Boolean))
  })
  const stderrLines: string[] = []
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c
    stderrLines.splice(0, stderrLines.length, ...stderr.split('\n').filter(Boolean))
  })
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, done, stdoutLines, stderrLines }
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return startCli(args, env).done
}
