import { closeSync, openSync, readSync } from 'node:fs'
import os from 'node:os'

export interface CpuTimes {
  readonly idle: number
  readonly total: number
}

/** Idle and total time summed over every logical CPU (ms). */
export function sumCpuTimes(cpus: readonly Pick<os.CpuInfo, 'times'>[]): CpuTimes {
  let idle = 0
  let total = 0
  for (const { times } of cpus) {
    idle += times.idle
    total += times.user + times.nice + times.sys + times.idle + times.irq
  }
  return { idle, total }
}

/**
 * The machine-wide line of /proc/stat ("cpu  user nice system idle iowait irq …",
 * clock ticks), summed as sumCpuTimes sums os.cpus() (user, nice, system, idle,
 * irq); null when it is not that line.
 */
export function parseProcStatCpuLine(text: string): CpuTimes | null {
  const end = text.indexOf('\n')
  const fields = (end < 0 ? text : text.slice(0, end)).trim().split(/\s+/)
  if (fields[0] !== 'cpu' || fields.length < 7) return null
  const [user, nice, system, idle, , irq] = fields.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  if (![user, nice, system, idle, irq].every(Number.isFinite)) return null
  return { idle, total: user + nice + system + idle + irq }
}

const head = Buffer.alloc(512)

/**
 * Linux: the first 512 bytes of /proc/stat, ~12 µs a reading; os.cpus() costs
 * ~55 µs there (it also reads every CPU's model and frequency), the largest
 * share of an idle tick (npm run bench idle). Null when it cannot be read.
 */
function readLinuxCpuTimes(): CpuTimes | null {
  let fd: number | null = null
  try {
    fd = openSync('/proc/stat', 'r')
    const n = readSync(fd, head, 0, head.length, 0)
    return parseProcStatCpuLine(head.toString('latin1', 0, n))
  } catch {
    return null
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** The machine's CPU counters: /proc/stat on Linux, os.cpus() elsewhere (and where /proc/stat fails). */
export function readCpuTimes(): CpuTimes {
  return (process.platform === 'linux' ? readLinuxCpuTimes() : null) ?? sumCpuTimes(os.cpus())
}

/** Busy share between two readings, 0–100; null when no time passed or a counter went back. */
export function cpuPercentBetween(a: CpuTimes, b: CpuTimes): number | null {
  const total = b.total - a.total
  const idle = b.idle - a.idle
  if (total <= 0 || idle < 0 || idle > total) return null
  return ((total - idle) / total) * 100
}

/** System CPU % from counter deltas: spawns nothing (one small read on Linux, one syscall on Windows). */
export class SystemCpuMeter {
  private last: CpuTimes | null = null

  constructor(private readonly readTimes: () => CpuTimes = readCpuTimes) {}

  sample(): number | null {
    const now = this.readTimes()
    const pct = this.last ? cpuPercentBetween(this.last, now) : null
    this.last = now
    return pct
  }
}
