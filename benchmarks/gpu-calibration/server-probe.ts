import { spawn } from 'node:child_process'
import { FitError } from '../../app/fit/fit-error'
import { parseServerMemoryLog, type ReportedDevices } from './server-memory-log'

/**
 * Starts llama-server with -lv 4 on a free loopback port, reads the memory
 * lines it prints while loading, and stops it as soon as it listens (SIGTERM,
 * SIGKILL after 5 s). Resolves to one report per loaded model (target, draft).
 */
export function probeServerMemory(bin: string, args: readonly string[], timeoutMs = 60_000): Promise<ReportedDevices[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...args, '-lv', '4', '--host', '127.0.0.1', '--port', '0', '-t', '1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      windowsHide: true,
      shell: false,
    })
    let log = ''
    let stopping = false
    let killTimer: NodeJS.Timeout | undefined
    const stop = (): void => {
      if (stopping) return
      stopping = true
      child.kill('SIGTERM')
      killTimer = setTimeout(() => child.kill('SIGKILL'), 5000)
    }
    const deadline = setTimeout(stop, timeoutMs)
    deadline.unref()
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      log += chunk
      // The stop handlers are installed once the slots are idle; a signal right at "listening" can be lost.
      if (/all slots are idle/.test(log)) stop()
    })
    child.once('error', (err) => {
      clearTimeout(deadline)
      reject(new FitError(`cannot start ${bin}: ${err.message}`))
    })
    child.once('exit', (code) => {
      clearTimeout(deadline)
      if (killTimer) clearTimeout(killTimer)
      if (!/listening on http/.test(log)) {
        const last = log.trim().split('\n').slice(-3).join(' | ')
        reject(new FitError(`llama-server exited (${code}) before it was ready: ${last}`))
        return
      }
      resolve(parseServerMemoryLog(log))
    })
  })
}
