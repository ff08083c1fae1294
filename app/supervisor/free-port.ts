import { createServer } from 'node:net'

/** A port the OS considers free on `host` right now (there is a race until someone binds it). */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen({ host, port: 0, exclusive: true }, () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port ? resolve(port) : reject(new Error('could not read the chosen port'))))
    })
  })
}

/** Whether something already listens on host:port (we try to bind it ourselves). */
export function isPortInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' || err.code === 'EACCES'))
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(false)))
  })
}
