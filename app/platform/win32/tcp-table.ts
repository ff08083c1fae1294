/**
 * Decoding GetExtendedTcpTable's TCP_TABLE_OWNER_PID_LISTENER tables (pure, so
 * it is tested with recorded rows on any platform).
 *   MIB_TCPTABLE_OWNER_PID:  DWORD dwNumEntries, then rows of
 *   MIB_TCPROW_OWNER_PID (24 bytes): state, localAddr, localPort, remoteAddr, remotePort, owningPid
 *   MIB_TCP6ROW_OWNER_PID (56 bytes): localAddr[16], localScopeId, localPort, remoteAddr[16], remoteScopeId, remotePort, state, owningPid
 * Ports are in network byte order in the low 16 bits of their DWORD.
 */

export const AF_INET = 2
export const AF_INET6 = 23
export const ROW4_SIZE = 24
export const ROW6_SIZE = 56

export interface TcpListenerRow {
  readonly port: number
  readonly pid: number
}

function portOf(dword: number): number {
  return ((dword & 0xff) << 8) | ((dword >>> 8) & 0xff)
}

/** The rows of one table; a truncated table yields the complete rows only. */
export function parseTcpOwnerPidTable(buf: Buffer, family: typeof AF_INET | typeof AF_INET6): TcpListenerRow[] {
  if (buf.length < 4) return []
  const count = buf.readUInt32LE(0)
  const size = family === AF_INET ? ROW4_SIZE : ROW6_SIZE
  const portAt = family === AF_INET ? 8 : 20
  const pidAt = family === AF_INET ? 20 : 52
  const out: TcpListenerRow[] = []
  for (let i = 0; i < count; i++) {
    const at = 4 + i * size
    if (at + size > buf.length) break
    out.push({ port: portOf(buf.readUInt32LE(at + portAt)), pid: buf.readUInt32LE(at + pidAt) })
  }
  return out
}
