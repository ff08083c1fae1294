/** Clock ticks per second of /proc times (USER_HZ): 100 on every mainstream Linux kernel. */
export const CLOCK_TICKS_PER_SECOND = 100

export interface ProcStat {
  readonly pid: number
  /** The command name (comm), up to 15 characters, may contain spaces and parentheses. */
  readonly name: string
  readonly state: string
  readonly ppid: number
  /** User + system CPU time of the process itself, in ms. */
  readonly cpuMs: number
  /** CPU time of its waited-for children, in ms. */
  readonly childrenCpuMs: number
  /** Resident set size, in pages. */
  readonly rssPages: number
}

/**
 * /proc/<pid>/stat. The name is between the first '(' and the LAST ')', since
 * it may itself contain ") ". Returns null for anything malformed.
 */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  if (open < 1 || close < open) return null
  const pid = Number(text.slice(0, open).trim())
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/)
  // rest[0] is field 3 (state); utime is field 14, stime 15, cutime 16, cstime 17, rss 24.
  const field = (n: number): number => Number(rest[n - 3])
  const values = [field(14), field(15), field(16), field(17), field(24), field(4)]
  if (!Number.isInteger(pid) || pid <= 0 || values.some((v) => !Number.isFinite(v)) || rest.length < 22) return null
  const tick = 1000 / CLOCK_TICKS_PER_SECOND
  return {
    pid,
    name: text.slice(open + 1, close),
    state: rest[0] as string,
    ppid: field(4),
    cpuMs: (field(14) + field(15)) * tick,
    childrenCpuMs: (field(16) + field(17)) * tick,
    rssPages: field(24),
  }
}

/** VmRSS from /proc/<pid>/status, in KiB; null when absent (kernel threads) or malformed. */
export function parseStatusRssKiB(text: string): number | null {
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(text)
  return m ? Number(m[1]) : null
}
