import { readFile, readlink } from 'node:fs/promises'
import { basename } from 'node:path'
import { runOnce } from '../lib/process/run-once'
import { readWindowsIdentity, type WindowsIdentitySource } from '../platform/win32/process-identity'
import { windowsProcesses } from '../platform/win32/process-table'
import { isProcessAlive } from '../lib/process/process-alive'

/** What identifies a running process beyond its pid (which the OS reuses). */
export interface ProcessIdentity {
  /** The executable's base name, e.g. "llama-server". */
  readonly name: string
  /** An opaque start-time token; equal tokens mean the same process. Null where unknown. */
  readonly startToken: string | null
}

/** ps's answer, or null when it fails or does not answer within 5 s (then it is killed with its group). */
async function run(file: string, args: string[]): Promise<string | null> {
  const r = await runOnce(file, args, 5000)
  return r.code === 0 ? r.stdout : null
}

/** Whether a process with this pid runs (the one check in lib/process). */
export const isAlive = isProcessAlive

/** Reads a live process's identity, or null if it is gone or unreadable. */
export async function readProcessIdentity(
  pid: number,
  platform: NodeJS.Platform = process.platform,
  windows?: WindowsIdentitySource,
): Promise<ProcessIdentity | null> {
  if (platform === 'linux') {
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
  if (platform === 'win32') return readWindowsIdentity(pid, windows ?? windowsProcesses())
  const out = await run('ps', ['-o', 'lstart=', '-o', 'comm=', '-p', String(pid)])
  const line = out?.trim()
  if (!line) return null
  const m = /^(\w{3}\s+\w{3}\s+\d+\s+[\d:]+\s+\d{4})\s+(.*)$/.exec(line)
  return m ? { name: basename(m[2] as string), startToken: m[1] as string } : { name: basename(line), startToken: null }
}

/**
 * The same start token, or the same name where none was recorded. A pid and its start time name one process even when
 * its name changed since: a wrapper script (`#!/usr/bin/env node`) read at spawn is `env` or the script's name, then
 * the interpreter's once it has exec'd. A recorded token that cannot be read now (a process we may not open) is not
 * proof: no match.
 */
export function sameProcess(recorded: ProcessIdentity, now: ProcessIdentity): boolean {
  if (recorded.startToken !== null) return recorded.startToken === now.startToken
  const norm = (n: string): string => n.toLowerCase().replace(/\.exe$/, '')
  return norm(recorded.name) === norm(now.name)
}
