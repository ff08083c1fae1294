import { WindowsProcessSource } from './toolhelp-processes'

let source: WindowsProcessSource | undefined

/** The one Toolhelp/GetProcessTimes binding (app/telemetry's), created on first use on Windows. */
export function windowsProcesses(): WindowsProcessSource {
  source ??= new WindowsProcessSource()
  return source
}

export interface ParentLink {
  readonly pid: number
  readonly parentPid: number
}

/**
 * Every process started by `root`, directly or not, from one process table
 * (Toolhelp's parent pids). Windows never re-parents, so the walk must be taken
 * while `root` still runs: afterwards its pid, and its children's links to it,
 * may belong to someone else. A cycle guard keeps the walk finite.
 */
export function descendantsOf(root: number, table: readonly ParentLink[]): number[] {
  const children = new Map<number, number[]>()
  for (const { pid, parentPid } of table) {
    if (pid === parentPid) continue
    const list = children.get(parentPid)
    if (list) list.push(pid)
    else children.set(parentPid, [pid])
  }
  const out: number[] = []
  const seen = new Set<number>([root])
  const queue = [root]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (seen.has(child)) continue
      seen.add(child)
      out.push(child)
      queue.push(child)
    }
  }
  return out
}
