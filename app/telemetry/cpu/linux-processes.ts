import { readdirSync, readFileSync } from 'node:fs'
import { parseProcStat, parseStatusRssKiB } from './proc-stat'
import type { ProcessInfo, ProcessSource } from '../../platform/process-source'

const PAGE_KIB = 4

/** /proc: one small file read per process, nothing spawned. */
export class LinuxProcessSource implements ProcessSource {
  constructor(private readonly procRoot = '/proc') {}

  list(): ProcessInfo[] {
    let entries: string[]
    try {
      entries = readdirSync(this.procRoot)
    } catch {
      return []
    }
    const out: ProcessInfo[] = []
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue
      const info = this.readStat(Number(entry))
      if (info) out.push(info)
    }
    return out
  }

  read(pid: number): ProcessInfo | null {
    const info = this.readStat(pid)
    if (!info) return null
    try {
      // VmRSS is exact; the stat rss field assumes 4 KiB pages.
      const rss = parseStatusRssKiB(readFileSync(`${this.procRoot}/${pid}/status`, 'utf8'))
      return rss === null ? info : { ...info, rssKiB: rss }
    } catch {
      return info
    }
  }

  private readStat(pid: number): ProcessInfo | null {
    try {
      const stat = parseProcStat(readFileSync(`${this.procRoot}/${pid}/stat`, 'utf8'))
      if (!stat || stat.state === 'Z') return null
      return { pid: stat.pid, name: stat.name.toLowerCase(), cpuMs: stat.cpuMs, rssKiB: stat.rssPages * PAGE_KIB }
    } catch {
      return null // gone between readdir and read, or not ours to read
    }
  }
}

/** /proc/<pid>/comm of each pid: the name Linux gives a process (at most 15 characters, its own case); a pid gone is left out. */
export function procCommNames(pids: readonly number[], procRoot = '/proc'): Map<number, string> {
  const out = new Map<number, string>()
  for (const pid of pids) {
    try {
      const name = readFileSync(`${procRoot}/${pid}/comm`, 'utf8').trim()
      if (name) out.set(pid, name)
    } catch {
      // gone meanwhile
    }
  }
  return out
}
