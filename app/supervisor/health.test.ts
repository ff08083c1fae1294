import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { probeHealth } from './health'

const servers: (Server | HttpServer)[] = []
const sockets: Socket[] = []

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

function listen(server: Server | HttpServer): Promise<number> {
  servers.push(server)
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

/** An HTTP server answering /health with `status`, recording what it was asked. */
async function httpAnswering(status: number, seen: string[] = []): Promise<number> {
  return listen(
    createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.host} ${req.headers.connection}`)
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    }),
  )
}

/** A TCP server that does `onSocket` with each connection instead of speaking HTTP. */
function rawServer(onSocket: (socket: Socket) => void): Promise<number> {
  return listen(
    createNetServer((socket) => {
      sockets.push(socket)
      onSocket(socket)
    }),
  )
}

describe('probeHealth', () => {
  it('asks GET /health once on a closing connection and reads the status: 200 ready, 503 loading, others as they are', async () => {
    const seen: string[] = []
    const port = await httpAnswering(200, seen)
    expect(await probeHealth('127.0.0.1', port, 5000)).toEqual({ kind: 'ready' })
    expect(seen).toEqual([`GET /health 127.0.0.1:${port} close`])
    expect(await probeHealth('0.0.0.0', await httpAnswering(503), 5000)).toEqual({ kind: 'loading' })
    expect(await probeHealth('localhost', await httpAnswering(404), 5000)).toEqual({ kind: 'unexpected', status: 404 })
  })

  it('reads a status line that arrives in pieces', async () => {
    const port = await rawServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 2')
        setImmediate(() => socket.end('00 OK\r\ncontent-length: 0\r\n\r\n'))
      })
    })
    expect(await probeHealth('127.0.0.1', port, 5000)).toEqual({ kind: 'ready' })
  })

  it('says down when nothing listens, when the answer is not HTTP, or when the connection closes first', async () => {
    const closed = await rawServer(() => {})
    await new Promise((r) => servers.pop()?.close(r))
    const refused = await probeHealth('127.0.0.1', closed, 5000)
    expect(refused).toEqual({ kind: 'down', detail: 'ECONNREFUSED' })

    const garbage = await rawServer((socket) => socket.once('data', () => socket.end('\u0000\u00ff not http\r\n')))
    const notHttp = await probeHealth('127.0.0.1', garbage, 5000)
    expect(notHttp.kind).toBe('down')
    expect(notHttp.kind === 'down' && notHttp.detail).toMatch(/^not an HTTP answer: /)

    const hangUp = await rawServer((socket) => socket.once('data', () => socket.end()))
    expect(await probeHealth('127.0.0.1', hangUp, 5000)).toEqual({ kind: 'down', detail: 'the connection closed before an answer' })
  })

  it('gives up on a server that accepts and stays silent, after its timeout or when aborted', async () => {
    const silent = await rawServer(() => {})
    expect(await probeHealth('127.0.0.1', silent, 50)).toEqual({ kind: 'down', detail: 'timeout' })
    const abort = new AbortController()
    const probe = probeHealth('127.0.0.1', silent, 600_000, abort.signal)
    abort.abort()
    expect(await probe).toEqual({ kind: 'down', detail: 'aborted' })
    expect(await probeHealth('127.0.0.1', silent, 600_000, abort.signal)).toEqual({ kind: 'down', detail: 'aborted' })
  })
})
