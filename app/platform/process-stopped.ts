import { readFileSync } from 'node:fs'

/**
 * Whether a process is stopped (SIGSTOP, a job-control stop, a tracer holding it): it cannot answer anything until
 * it is continued. Linux reads the state letter of /proc/<pid>/stat, one small file and no wake of the process;
 * null where the platform shows no such state cheaply (Windows, macOS) or the process is gone.
 */
export function processStopped(pid: number, platform: NodeJS.Platform = process.platform): boolean | null {
  if (platform !== 'linux') return null
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // "pid (comm) S ...": the name may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2)
  return state === 'T' || state === 't'
}
