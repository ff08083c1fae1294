import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import type { PortHolder } from '../../platform/port-holder'

const TCP_LISTEN = '0A'

/** One listening socket from /proc/net/tcp or tcp6. */
export interface ProcListener {
  readonly port: number
  readonly inode: number
}

/** The listening sockets in the text of /proc/net/tcp or /proc/net/tcp6 (`local_address` is HEXIP:HEXPORT, `st` 0A is LISTEN). */
export function parseProcNetTcp(text: string): ProcListener[] {
  const out: ProcListener[] = []
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)
    if (f.length < 10 || f[3] !== TCP_LISTEN) continue
    const port = parseInt((f[1] as string).split(':')[1] ?? '', 16)
    const inode = Number(f[9])
    if (Number.isInteger(port) && Number.isInteger(inode) && inode > 0) out.push({ port, inode })
  }
  return out
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** The process holding a socket inode: the one whose fd links to socket:[inode] (only our own user's processes are readable). */
function processOfInode(inodes: ReadonlySet<number>, procRoot: string): PortHolder | null {
  for (const entry of readdirSync(procRoot)) {
    if (!/^\d+$/.test(entry)) continue
    let fds: string[]
    try {
      fds = readdirSync(`${procRoot}/${entry}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      let target: string
      try {
        target = readlinkSync(`${procRoot}/${entry}/fd/${fd}`)
      } catch {
        continue
      }
      const m = /^socket:\[(\d+)\]$/.exec(target)
      if (m && inodes.has(Number(m[1]))) {
        const name = readOr(`${procRoot}/${entry}/comm`).trim()
        return { pid: Number(entry), name: name || null }
      }
    }
  }
  return null
}

/** Linux: the listener's inode from /proc/net/tcp{,6}, then the process with that socket open. */
export function linuxPortHolder(port: number, procRoot = '/proc'): PortHolder | null {
  const listeners = [...parseProcNetTcp(readOr(`${procRoot}/net/tcp`)), ...parseProcNetTcp(readOr(`${procRoot}/net/tcp6`))]
  const inodes = new Set(listeners.filter((l) => l.port === port).map((l) => l.inode))
  return inodes.size === 0 ? null : processOfInode(inodes, procRoot)
}
