import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { linuxPortHolder, parseProcNetTcp } from './linux-port-holder'
import { portTakenMessage } from './port-holder'
import { AF_INET, AF_INET6, parseTcpOwnerPidTable, ROW4_SIZE, ROW6_SIZE } from '../../platform/win32/tcp-table'

// Recorded from a Linux machine: a listener on 127.0.0.1:8080 (inode 91234), one established connection, one on [::]:11434.
const PROC_NET_TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 91234 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F90 0100007F:D2A4 01 00000000:00000000 00:00000000 00000000  1000        0 91240 1 0000000000000000 20 4 30 10 -1
`
const PROC_NET_TCP6 =
  `  sl  local_address                         remote_address ` +
  `                       st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:2CAA 00000000000000000000000000000000:0000 ` +
  `0A 00000000:00000000 00:00000000 00000000   997        0 55012 1 0000000000000000 100 0 0 10 0
`

/** Rows as GetExtendedTcpTable writes them: the count, then the rows, ports in network byte order. */
function table4(rows: { addr: number; port: number; pid: number }[]): Buffer {
  const buf = Buffer.alloc(4 + rows.length * ROW4_SIZE)
  buf.writeUInt32LE(rows.length, 0)
  rows.forEach((r, i) => {
    const at = 4 + i * ROW4_SIZE
    buf.writeUInt32LE(2, at) // MIB_TCP_STATE_LISTEN
    buf.writeUInt32LE(r.addr, at + 4)
    buf.writeUInt32LE(((r.port & 0xff) << 8) | (r.port >> 8), at + 8)
    buf.writeUInt32LE(r.pid, at + 20)
  })
  return buf
}

describe('who holds a port', () => {
  let server: Server | null = null
  afterEach(() => server?.close())

  it('reads the listening sockets of /proc/net/tcp and tcp6, skipping connections', () => {
    expect(parseProcNetTcp(PROC_NET_TCP)).toEqual([{ port: 8080, inode: 91234 }])
    expect(parseProcNetTcp(PROC_NET_TCP6)).toEqual([{ port: 11434, inode: 55012 }])
    expect(parseProcNetTcp('')).toEqual([])
  })

  it('decodes recorded GetExtendedTcpTable rows (IPv4 and IPv6, a truncated table)', () => {
    const v4 = table4([
      { addr: 0x0100007f, port: 8080, pid: 4242 },
      { addr: 0, port: 11434, pid: 9000 },
    ])
    expect(parseTcpOwnerPidTable(v4, AF_INET)).toEqual([
      { port: 8080, pid: 4242 },
      { port: 11434, pid: 9000 },
    ])
    expect(parseTcpOwnerPidTable(v4.subarray(0, 4 + ROW4_SIZE + 3), AF_INET)).toEqual([{ port: 8080, pid: 4242 }])
    const v6 = Buffer.alloc(4 + ROW6_SIZE)
    v6.writeUInt32LE(1, 0)
    v6.writeUInt32LE(0x901f, 4 + 20) // 8080 in network byte order
    v6.writeUInt32LE(1234, 4 + 52)
    expect(parseTcpOwnerPidTable(v6, AF_INET6)).toEqual([{ port: 8080, pid: 1234 }])
    expect(parseTcpOwnerPidTable(Buffer.alloc(2), AF_INET)).toEqual([])
  })

  it.runIf(process.platform === 'linux')('names this process when it holds the port, and offers a free one', async () => {
    server = createServer()
    const port = await new Promise<number>((resolve) =>
      server?.listen(0, '127.0.0.1', () => resolve((server?.address() as { port: number }).port)),
    )
    expect(linuxPortHolder(port)?.pid).toBe(process.pid)
    const message = await portTakenMessage(port, '127.0.0.1')
    expect(message.reason).toMatch(new RegExp(`^port ${port} on 127\\.0\\.0\\.1 is already in use by .*\\(pid ${process.pid}\\)$`))
    expect(message.freePort).not.toBe(port)
  })
})
