import os from 'node:os'
import type { CpuSnapshot, HeavyAppSnapshot, ServerProcessSnapshot, TopProcessSnapshot } from '../../contract/telemetry'
import { CpuShareTracker } from './cpu-share'
import { DEFAULT_HEAVY_APPS, matchHeavyApps, type HeavyAppList } from './heavy-apps'
import type { ProcessSource } from '../../platform/process-source'
import { SystemCpuMeter } from './system-cpu'

export interface CpuMonitorOptions {
  /** null: no process table on this platform (server, heavy apps and top processes stay empty). */
  readonly processes: ProcessSource | null
  readonly heavyApps?: HeavyAppList
  /** How often the whole process table is scanned (5–10 s); the server itself is read every tick. */
  readonly scanIntervalMs?: number
  /** The scan period while the server is idle (no request): a heavy app matters once it competes with one… */
  readonly idleScanIntervalMs?: number
  /** …doubling after each idle scan that found the same heavy apps, up to this (a scan of /proc costs ~1–2 ms). */
  readonly idleScanMaxIntervalMs?: number
  readonly topCount?: number
  readonly cpuCount?: number
  readonly systemCpu?: SystemCpuMeter
  readonly memory?: () => { totalBytes: number; freeBytes: number }
}

const MIB = 1024 * 1024

/**
 * Idle and unwatched, the CPU and RAM figures are read this often (the last ones are kept between): no
 * warning reads them without a request, and each read is four /proc files (on Linux) per tick.
 */
export const IDLE_UNWATCHED_CPU_MS = 60_000

/**
 * System CPU and RAM every tick, llama-server's own CPU and RSS every tick,
 * and a scan of every process (heavy apps, top consumers) every scanIntervalMs.
 */
export class CpuMonitor {
  private serverPid: number | null = null
  private serverLast: { cpuMs: number; at: number } | null = null
  private readonly shares: CpuShareTracker
  private lastScanAt = Number.NEGATIVE_INFINITY
  private idle = false
  /** Someone shows the figures (the dashboard): idle scans keep the top processes fresh for them. */
  private watched = true
  /** Idle scans in a row that found the same heavy apps as the one before. */
  private unchangedIdleScans = 0
  /** The heavy apps the last scan found (heavyKey); null before the first scan. */
  private lastHeavyKey: string | null = null
  private heavy: HeavyAppSnapshot[] = []
  private top: TopProcessSnapshot[] = []
  private readonly system: SystemCpuMeter
  private readonly cpuCount: number
  /** Read once: each os.totalmem() reads /proc/meminfo again, and the installed RAM does not change. */
  private readonly totalMemBytes = os.totalmem()
  private heavyApps: HeavyAppList
  /** The last figures and when they were read (kept between reads while idle and unwatched). */
  private last: { snapshot: CpuSnapshot; at: number } | null = null

  constructor(private readonly options: CpuMonitorOptions) {
    this.heavyApps = options.heavyApps ?? DEFAULT_HEAVY_APPS
    this.cpuCount = options.cpuCount ?? Math.max(1, os.availableParallelism())
    this.shares = new CpuShareTracker(this.cpuCount)
    this.system = options.systemCpu ?? new SystemCpuMeter()
  }

  /** Replaces the heavy-app list (the user edited it); applies at the next scan, which comes at once. */
  setHeavyApps(list: HeavyAppList): void {
    this.heavyApps = list
    this.lastScanAt = Number.NEGATIVE_INFINITY
    this.unchangedIdleScans = 0
  }

  /**
   * Whether the server has no request to work on. Idle, the process table is
   * scanned rarely (it is the largest idle cost); when work starts, at once.
   */
  setIdle(idle: boolean): void {
    if (idle === this.idle) return
    this.idle = idle
    this.unchangedIdleScans = 0
    if (!idle) this.lastScanAt = Number.NEGATIVE_INFINITY
    if (!idle) this.last = null
  }

  /**
   * Whether anyone shows the figures. Idle and unwatched, the process table is not scanned at all:
   * the heavy-app warning needs a request to compete with, and setIdle(false) scans at once.
   */
  setWatched(watched: boolean): void {
    if (watched === this.watched) return
    this.watched = watched
    if (watched) this.lastScanAt = Number.NEGATIVE_INFINITY
    if (watched) this.last = null
  }

  /** The llama-server to follow (null when none runs). */
  setServerPid(pid: number | null): void {
    if (pid === this.serverPid) return
    this.serverPid = pid
    this.serverLast = null
    this.last = null
  }

  tick(now = Date.now()): CpuSnapshot {
    const last = this.last
    if (last && this.idle && !this.watched && now - last.at < IDLE_UNWATCHED_CPU_MS) return last.snapshot
    const snapshot = this.read(now)
    this.last = { snapshot, at: now }
    return snapshot
  }

  private read(now: number): CpuSnapshot {
    const mem = this.options.memory?.() ?? { totalBytes: this.totalMemBytes, freeBytes: os.freemem() }
    const scanEvery = !this.idle ? (this.options.scanIntervalMs ?? 5000) : this.watched ? this.idleScanEvery() : Infinity
    if (this.options.processes && now - this.lastScanAt >= scanEvery) this.scan(this.options.processes, now)
    return {
      systemPct: this.system.sample(),
      ramTotalMiB: Math.round(mem.totalBytes / MIB),
      ramFreeMiB: Math.round(mem.freeBytes / MIB),
      server: this.readServer(now),
      heavyApps: this.heavy,
      topProcesses: this.top,
    }
  }

  private readServer(now: number): ServerProcessSnapshot | null {
    const pid = this.serverPid
    if (pid === null || !this.options.processes) return null
    const p = this.options.processes.read(pid)
    if (!p) return { pid, cpuPct: null, rssMiB: null }
    let cpuPct: number | null = null
    if (p.cpuMs !== null) {
      if (this.serverLast && now > this.serverLast.at) {
        cpuPct = Math.min(100, Math.max(0, ((p.cpuMs - this.serverLast.cpuMs) / ((now - this.serverLast.at) * this.cpuCount)) * 100))
      }
      this.serverLast = { cpuMs: p.cpuMs, at: now }
    }
    return { pid, cpuPct, rssMiB: p.rssKiB === null ? null : Math.round((p.rssKiB / 1024) * 10) / 10 }
  }

  /** Idle, the scan backs off while nothing changes: 30 s, 60 s, … up to the maximum. */
  private idleScanEvery(): number {
    const base = this.options.idleScanIntervalMs ?? 30_000
    return Math.min(this.options.idleScanMaxIntervalMs ?? 240_000, base * 2 ** Math.min(this.unchangedIdleScans, 20))
  }

  private scan(source: ProcessSource, now: number): void {
    this.lastScanAt = now
    const list = source.list()
    const shares = this.shares.update(list, now)
    this.heavy = matchHeavyApps(list, shares, this.heavyApps, process.platform, new Set(this.serverPid === null ? [] : [this.serverPid]))
    const key = heavyKey(this.heavy)
    this.unchangedIdleScans = this.idle && key === this.lastHeavyKey ? this.unchangedIdleScans + 1 : 0
    this.lastHeavyKey = key
    this.top = list
      .filter((p) => p.pid !== this.serverPid)
      .map((p) => ({ name: p.name, pid: p.pid, cpuPct: shares.get(p.pid) ?? null }))
      .filter((p): p is TopProcessSnapshot => p.cpuPct !== null && p.cpuPct > 0)
      .sort((a, b) => b.cpuPct - a.cpuPct)
      .slice(0, this.options.topCount ?? 5)
      .map((p) => ({ ...p, cpuPct: Math.round(p.cpuPct * 10) / 10 }))
  }
}

/** Which heavy apps run, by name (their CPU figures move every scan). */
function heavyKey(heavy: readonly HeavyAppSnapshot[]): string {
  return heavy
    .map((h) => h.name)
    .sort()
    .join('\n')
}
