import type { WindowsProcessSource } from './toolhelp-processes'

/** What a process is beyond its pid on Windows: the image name and a creation-time token (the supervisor's ProcessIdentity). */
export interface WindowsProcessIdentity {
  readonly name: string
  readonly startToken: string | null
}

/** What the Windows identity needs: the Toolhelp table and GetProcessTimes (the binding in toolhelp-processes.ts). */
export type WindowsIdentitySource = Pick<WindowsProcessSource, 'entries' | 'creationTime'>

/**
 * Windows: the image name from a Toolhelp snapshot and the creation time
 * (GetProcessTimes, a FILETIME) as the token, both in-process. A pid reused by
 * another process has another creation time, so it never matches the record.
 */
export function readWindowsIdentity(pid: number, source: WindowsIdentitySource): WindowsProcessIdentity | null {
  const entry = source.entries()?.find((e) => e.pid === pid)
  if (!entry) return null
  const created = source.creationTime(pid)
  return { name: entry.exeFile.replace(/\.exe$/i, ''), startToken: created === null ? null : `filetime:${created}` }
}
