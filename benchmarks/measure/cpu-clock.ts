import { readFileSync } from 'node:fs'
import { parseProcStat } from '../../app/telemetry/cpu/proc-stat'

/** CPU time of this process so far, in ms (µs resolution). */
export function selfCpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** CPU time of this process's exited, waited-for children, in ms (Linux; 10 ms ticks; 0 elsewhere). */
export function childrenCpuMs(): number {
  try {
    return parseProcStat(readFileSync('/proc/self/stat', 'utf8'))?.childrenCpuMs ?? 0
  } catch {
    return 0
  }
}

/** CPU time of a live process, in ms (Linux); null when unreadable. */
export function pidCpuMs(pid: number): number | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.cpuMs ?? null
  } catch {
    return null
  }
}
