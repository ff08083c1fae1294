import type { Snapshot } from '../../../app/contract/snapshot'
import type { Warning, WarningLevel } from '../../../app/contract/warnings'

// What the tray popover picks out of a snapshot (pure, tested): it has room
// for one warning and one line about the other apps.

const SEVERITY: Record<WarningLevel, number> = { error: 3, warn: 2, info: 1 }

/** The most severe warning (the first of its level, in the core's order), or null; info-level findings are no notice. */
export function mostSevereWarning(warnings: readonly Warning[]): Warning | null {
  let best: Warning | null = null
  for (const w of warnings) if (w.level !== 'info' && (!best || SEVERITY[w.level] > SEVERITY[best.level])) best = w
  return best
}

/** "Discord 14%": a heavy app the user named first (the busiest of them), else the busiest other process; null when none. */
export function heaviestOtherApp(cpu: Snapshot['cpu'] | null | undefined): string | null {
  if (!cpu) return null
  const serverPid = cpu.server?.pid ?? -1
  const apps = cpu.heavyApps.filter((a) => !a.pids.includes(serverPid))
  const app = [...apps].sort((a, b) => (b.cpuPct ?? 0) - (a.cpuPct ?? 0))[0]
  if (app) return app.cpuPct === null ? app.name : `${app.name} ${Math.round(app.cpuPct)}%`
  const top = cpu.topProcesses.find((p) => p.pid !== serverPid)
  return top ? `${top.name} ${Math.round(top.cpuPct)}%` : null
}
