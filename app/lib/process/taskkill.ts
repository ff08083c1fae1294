import { spawn, type ChildProcess } from 'node:child_process'
import { win32 } from 'node:path'

/** What running taskkill needs from the OS; the supervisor's Windows tests inject a stand-in. */
export interface TaskkillDeps {
  /** Starts taskkill.exe (never through a shell). */
  readonly spawn: (
    file: string,
    args: readonly string[],
    options: { windowsHide: true; shell: false; stdio: ['ignore', 'pipe', 'pipe'] },
  ) => ChildProcess
  /** For %SystemRoot%. */
  readonly env: NodeJS.ProcessEnv
}

export function defaultTaskkillDeps(): TaskkillDeps {
  return { spawn: (file, args, options) => spawn(file, [...args], options), env: process.env }
}

/** %SystemRoot%\System32\taskkill.exe: an absolute path, so no PATH lookup and no cmd.exe. */
export function taskkillPath(env: NodeJS.ProcessEnv): string {
  return win32.join(env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows', 'System32', 'taskkill.exe')
}

export type TaskkillResult = { readonly ok: true } | { readonly ok: false; readonly why: string }

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  )
}

/** `taskkill /PID pid /T /F` (the process and every descendant), resolved within timeoutMs whatever taskkill does. */
export function runTaskkill(pid: number, deps: TaskkillDeps, timeoutMs: number): Promise<TaskkillResult> {
  return new Promise((resolve) => {
    let child: ChildProcess
    try {
      child = deps.spawn(taskkillPath(deps.env), ['/PID', String(pid), '/T', '/F'], {
        windowsHide: true,
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
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
      // A hung taskkill must not hold us by its pipes either.
      child.stdout?.destroy()
      child.stderr?.destroy()
      finish({ ok: false, why: `taskkill did not finish within ${(timeoutMs / 1000).toFixed(1)} s` })
    }, timeoutMs)
    child.once('error', (err) => finish({ ok: false, why: `could not start taskkill: ${err.message}` }))
    child.once('exit', (code) => {
      // Let the last output arrive for the message; the exit code decides.
      setImmediate(() =>
        finish(
          code === 0
            ? { ok: true }
            : { ok: false, why: `taskkill exited with ${code ?? 'no code'}${firstLine(output) ? `: ${firstLine(output)}` : ''}` },
        ),
      )
    })
  })
}
