import type { ProcessInfo } from '../../platform/process-source'

/**
 * CPU % per process from the growth of its CPU time between two scans, as a
 * share of the whole machine (all cores = 100). Keyed by pid and name so a
 * reused pid starts over instead of showing a bogus spike.
 */
export class CpuShareTracker {
  private last = new Map<string, number>()
  private lastAt: number | null = null

  constructor(private readonly cpuCount: number) {}

  /** Returns each process's % since the previous update (null for a process seen for the first time). */
  update(processes: readonly ProcessInfo[], now: number): Map<number, number | null> {
    const next = new Map<string, number>()
    const shares = new Map<number, number | null>()
    const elapsed = this.lastAt === null ? 0 : now - this.lastAt
    for (const p of processes) {
      if (p.cpuMs === null) {
        shares.set(p.pid, null)
        continue
      }
      const key = `${p.pid}:${p.name}`
      next.set(key, p.cpuMs)
      const before = this.last.get(key)
      const pct = before === undefined || elapsed <= 0 ? null : ((p.cpuMs - before) / (elapsed * this.cpuCount)) * 100
      shares.set(p.pid, pct === null ? null : Math.min(100, Math.max(0, pct)))
    }
    this.last = next
    this.lastAt = now
    return shares
  }
}
