import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

export interface StaticServer {
  readonly url: string
  close(): Promise<void>
}

/** Serves a built folder on 127.0.0.1 (an ephemeral port), nothing outside it. */
export async function serveFolder(root: string): Promise<StaticServer> {
  const base = normalize(root + sep)
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = normalize(join(base, path === '/' ? 'index.html' : path))
    if (!file.startsWith(base)) {
      res.writeHead(403).end()
      return
    }
    readFile(file).then(
      (body) =>
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(404).end(),
    )
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
