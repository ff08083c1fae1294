import { request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { parseSlotsText, type SlotReading } from './slots-parser'

export type SlotsFetchResult =
  /** `time`: monotonic ms when the answer's headers arrived (≈ when the server read its slots). */
  | { readonly kind: 'ok'; readonly slots: SlotReading[]; readonly time: number }
  /** No answer within the timeout: the server is busy, not dead. */
  | { readonly kind: 'slow'; readonly detail: string }
  /** Nothing listens (refused, reset): the server is gone or restarting. */
  | { readonly kind: 'down'; readonly detail: string }
  | { readonly kind: 'unauthorized'; readonly detail: string }
  /** /slots is disabled (--no-slots) or not routed. */
  | { readonly kind: 'unavailable'; readonly detail: string }
  | { readonly kind: 'error'; readonly detail: string }
  | { readonly kind: 'aborted'; readonly detail: string }

export interface FetchSlotsOptions {
  readonly apiKey?: string | null
  readonly timeoutMs: number
  readonly signal?: AbortSignal
  /** ik_llama includes each slot's full prompt text: cap what we read. */
  readonly maxBytes?: number
}

/** An http URL for `path` on a llama-server listening on host:port (wildcard hosts are reached through loopback). */
export function serverUrl(host: string, port: number, path = '/'): string {
  const h = host === '' || host === '0.0.0.0' || host === 'localhost' ? '127.0.0.1' : host === '::' || host === '[::]' ? '::1' : host.replace(/^\[|\]$/g, '')
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}${path}`
}

/**
 * One GET /slots on a fresh connection (agent: false, so no keep-alive socket
 * outlives the call). Never rejects.
 */
export function fetchSlots(url: string, options: FetchSlotsOptions): Promise<SlotsFetchResult> {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024
  return new Promise((resolve) => {
    let settled = false
    let target: URL
    try {
      target = new URL(url)
    } catch {
      resolve({ kind: 'error', detail: `not a URL: ${url}` })
      return
    }
    const headers: Record<string, string> = { connection: 'close', accept: 'application/json' }
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
    const req = request(
      { hostname: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || 80, path: `${target.pathname}${target.search}`, method: 'GET', agent: false, headers },
      (res) => {
        const time = performance.now()
        const status = res.statusCode ?? 0
        if (status === 401 || status === 403) {
          res.resume()
          return finish({ kind: 'unauthorized', detail: `HTTP ${status}: ${options.apiKey ? 'the API key was refused' : 'the server needs an API key'}` })
        }
        if (status === 501 || status === 404) {
          res.resume()
          return finish({ kind: 'unavailable', detail: `HTTP ${status}: /slots is disabled on this server` })
        }
        if (status === 503) {
          res.resume()
          return finish({ kind: 'slow', detail: 'HTTP 503: loading or no slot available' })
        }
        if (status !== 200) {
          res.resume()
          return finish({ kind: 'error', detail: `HTTP ${status}` })
        }
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBytes) {
            req.destroy()
            finish({ kind: 'error', detail: `/slots answer larger than ${maxBytes} bytes` })
            return
          }
          chunks.push(chunk)
        })
        res.on('end', () => {
          const slots = parseSlotsText(Buffer.concat(chunks).toString('utf8'))
          finish(slots ? { kind: 'ok', slots, time } : { kind: 'error', detail: '/slots answered something that is not a slot list' })
        })
        res.on('error', (err) => finish({ kind: 'down', detail: err.message }))
      },
    )
    const finish = (r: SlotsFetchResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      resolve(r)
    }
    const onAbort = (): void => {
      req.destroy()
      finish({ kind: 'aborted', detail: 'aborted' })
    }
    const timer = setTimeout(() => {
      req.destroy()
      finish({ kind: 'slow', detail: `no answer within ${options.timeoutMs} ms` })
    }, options.timeoutMs)
    if (options.signal?.aborted) return onAbort()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    req.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'down', detail: err.code ?? err.message }))
    req.end()
  })
}
