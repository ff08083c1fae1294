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

/** Busy share between two readings, 0–100; null when no time passed or a counter went back. */
export function cpuPercentBetween(a: CpuTimes, b: CpuTimes): number | null {
  const total = b.total - a.total
  const idle = b.idle - a.idle
  if (total <= 0 || idle < 0 || idle > total) return null
  return ((total - idle) / total) * 100
}

/** System CPU % from os.cpus() deltas: spawns nothing (one syscall on Linux and Windows). */
export class SystemCpuMeter {
  private last: CpuTimes | null = null

  constructor(private readonly readCpus: () => readonly Pick<os.CpuInfo, 'times'>[] = os.cpus) {}

  sample(): number | null {
    const now = sumCpuTimes(this.readCpus())
    const pct = this.last ? cpuPercentBetween(this.last, now) : null
    this.last = now
    return pct
  }
}
