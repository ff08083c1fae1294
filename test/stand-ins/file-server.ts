import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sendWithRange, type RangeOptions, type ServedFile } from './range-response'

export interface RecordedRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
}

/** What the next request to a path gets instead of a plain answer (each used once). */
export type Fault =
  | { readonly kind: 'cut'; readonly after: number }
  | { readonly kind: 'stall'; readonly after: number }
  | { readonly kind: 'ignore-range' }
  | { readonly kind: 'endless' } // no Content-Length, the file then zeros until the client hangs up
  | { readonly kind: 'announce'; readonly length: number } // this Content-Length, and that many bytes
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Readonly<Record<string, string>> }

/**
 * A local HTTP server for download tests: files with Range and ETag, redirects
 * (to itself or another origin), and faults queued per path (cut midway,
 * stall, ignore Range, any status such as 429 with its headers). Every request
 * is recorded with its headers.
 */
export class FileServer {
  readonly files = new Map<string, ServedFile>()
  readonly redirects = new Map<string, string>()
  readonly requests: RecordedRequest[] = []
  private readonly faults = new Map<string, Fault[]>()
  private server: Server | null = null
  origin = ''

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/'
      this.requests.push({ path, headers: req.headers })
      const target = this.redirects.get(path)
      if (target) {
        res.writeHead(302, { location: target })
        return void res.end()
      }
      const fault = this.faults.get(path)?.shift()
      if (fault?.kind === 'status') {
        res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers })
        return void res.end(`status ${fault.status}`)
      }
      const file = this.files.get(path)
      if (!file) {
        res.writeHead(404)
        return void res.end('not found')
      }
      const opts: RangeOptions =
        fault?.kind === 'cut'
          ? { cutAfter: fault.after }
          : fault?.kind === 'stall'
            ? { stallAfter: fault.after }
            : fault?.kind === 'ignore-range'
              ? { ignoreRange: true }
              : fault?.kind === 'endless'
                ? { sizeLie: 'endless' }
                : fault?.kind === 'announce'
                  ? { sizeLie: { contentLength: fault.length } }
                  : {}
      sendWithRange(req, res, file, opts)
    })
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  url(path: string): string {
    return `${this.origin}${path}`
  }

  fault(path: string, fault: Fault): void {
    const list = this.faults.get(path) ?? []
    list.push(fault)
    this.faults.set(path, list)
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path)
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve()
      this.server.closeAllConnections()
      this.server.close(() => resolve())
    })
  }
}
