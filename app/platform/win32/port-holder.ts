import { loadKoffi } from '../koffi'
import { normalizeImageName } from '../process-source'
import { windowsProcesses } from './process-table'
import type { PortHolder } from '../port-holder'
import { AF_INET, AF_INET6, parseTcpOwnerPidTable } from './tcp-table'

const TCP_TABLE_OWNER_PID_LISTENER = 3
const NO_ERROR = 0
const ERROR_INSUFFICIENT_BUFFER = 122

type GetExtendedTcpTable = (
  table: Buffer | null,
  size: [number],
  order: boolean,
  family: number,
  tableClass: number,
  reserved: number,
) => number

let bound: GetExtendedTcpTable | null | undefined

function bind(): GetExtendedTcpTable | null {
  if (bound !== undefined) return bound
  const koffi = loadKoffi()
  if (typeof koffi === 'string') return (bound = null)
  try {
    const lib = koffi.load('iphlpapi.dll')
    bound = lib.func(
      'uint32_t __stdcall GetExtendedTcpTable(_Out_ uint8_t *table, _Inout_ uint32_t *size, bool order, uint32_t family, int ' +
        'tableClass, uint32_t reserved)',
    ) as GetExtendedTcpTable
  } catch {
    bound = null
  }
  return bound
}

/** One family's listener table: ask its size, then fill it (grown once more if a listener appeared meanwhile). */
function readTable(fn: GetExtendedTcpTable, family: number): Buffer | null {
  const size: [number] = [0]
  let rc = fn(null, size, false, family, TCP_TABLE_OWNER_PID_LISTENER, 0)
  for (let attempt = 0; attempt < 3 && rc === ERROR_INSUFFICIENT_BUFFER; attempt++) {
    const buf = Buffer.alloc(size[0] + 1024)
    size[0] = buf.length
    rc = fn(buf, size, false, family, TCP_TABLE_OWNER_PID_LISTENER, 0)
    if (rc === NO_ERROR) return buf
  }
  return null
}

/** Windows: the listener's pid from GetExtendedTcpTable (IPv4, then IPv6), its name from the process table. */
export function windowsPortHolder(port: number): PortHolder | null {
  const fn = bind()
  if (!fn) return null
  for (const family of [AF_INET, AF_INET6] as const) {
    const table = readTable(fn, family)
    const row = table ? parseTcpOwnerPidTable(table, family).find((r) => r.port === port) : undefined
    if (row) {
      // The snapshot's names only: list() would also open every process for its times (1.7x the CPU at 300, under Wine).
      const exeFile = windowsProcesses()
        .entries()
        ?.find((p) => p.pid === row.pid)?.exeFile
      const name = exeFile === undefined ? null : normalizeImageName(exeFile)
      return { pid: row.pid, name }
    }
  }
  return null
}
