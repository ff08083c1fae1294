import { execFile } from 'node:child_process'
import { readFile, readlink } from 'node:fs/promises'
import { basename } from 'node:path'

/** What identifies a running process beyond its pid (which the OS reuses). */
export interface ProcessIdentity {
  /** The executable's base name, e.g. "llama-server". */
  readonly name: string
  /** An opaque start-time token; equal tokens mean the same process. Null where unknown. */
  readonly startToken: string | null
}

function run(file: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000, windowsHide: true }, (err, stdout) => resolve(err ? null : stdout))
  })
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Reads a live process's identity, or null if it is gone or unreadable. */
export async function readProcessIdentity(pid: number): Promise<ProcessIdentity | null> {
  if (process.platform === 'linux') {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
      // Field 22 (starttime) follows the parenthesised command name, which may contain spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      let name: string
      try {
        name = basename(await readlink(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '')
      } catch {
        name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      }
      return { name, startToken: fields[19] ?? null }
    } catch {
      return null
    }
  }
  if (process.platform === 'win32') {
    const out = await run('tasklist', ['/FI', `PID eq ${pid}`, '/FO', 'CSV', '/NH'])
    const m = out?.match(/^"([^"]+)"/m)
    return m ? { name: (m[1] as string).replace(/\.exe$/i, ''), startToken: null } : null
  }
  const out = await run('ps', ['-o', 'lstart=', '-o', 'comm=', '-p', String(pid)])
  const line = out?.trim()
  if (!line) return null
  const m = /^(\w{3}\s+\w{3}\s+\d+\s+[\d:]+\s+\d{4})\s+(.*)$/.exec(line)
  return m ? { name: basename(m[2] as string), startToken: m[1] as string } : { name: basename(line), startToken: null }
}

export function sameProcess(recorded: ProcessIdentity, now: ProcessIdentity): boolean {
  const norm = (n: string): string => n.toLowerCase().replace(/\.exe$/, '')
  if (norm(recorded.name) !== norm(now.name)) return false
  return recorded.startToken === null || now.startToken === null || recorded.startToken === now.startToken
}
