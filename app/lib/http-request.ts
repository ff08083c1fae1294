import { request } from 'node:http'
import { performance } from 'node:perf_hooks'

/** One HTTP request to a local llama-server. */
export interface HttpRequest {
  readonly url: string
  readonly method?: 'GET' | 'POST'
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  readonly timeoutMs: number
  readonly signal?: AbortSignal
  /** The most body bytes read (ik_llama's /slots carries whole prompts). */
  readonly maxBytes?: number
}

export type HttpResult =
  /** `headersAt`: monotonic ms when the answer's headers arrived. */
  | { readonly kind: 'response'; readonly status: number; readonly body: Buffer; readonly headersAt: number }
  | { readonly kind: 'failed'; readonly reason: 'timeout' | 'aborted' | 'too-large' | 'network' | 'bad-url'; readonly detail: string }

/**
 * The app's one HTTP client for llama-server (/health, /slots, /completion).
 * A fresh connection each time (agent: false, `connection: close`), so no
 * keep-alive socket outlives the call. Never rejects: a failure is a value.
 */
export function httpRequest(req: HttpRequest): Promise<HttpResult> {
  const maxBytes = req.maxBytes ?? 64 * 1024 * 1024
  return new Promise((resolve) => {
    let target: URL
    try {
      target = new URL(req.url)
    } catch {
      resolve({ kind: 'failed', reason: 'bad-url', detail: `not a URL: ${req.url}` })
      return
    }
    let settled = false
    const headers: Record<string, string> = { connection: 'close', ...req.headers }
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body))
    const finish = (r: HttpResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      req.signal?.removeEventListener('abort', onAbort)
      resolve(r)
    }
    const http = request(
      {
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: req.method ?? 'GET',
        agent: false,
        headers,
      },
      (res) => {
        const headersAt = performance.now()
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBytes) {
            http.destroy()
            finish({ kind: 'failed', reason: 'too-large', detail: `answer larger than ${maxBytes} bytes` })
            return
          }
          chunks.push(chunk)
        })
        res.on('end', () => finish({ kind: 'response', status: res.statusCode ?? 0, body: Buffer.concat(chunks), headersAt }))
        res.on('error', (err) => finish({ kind: 'failed', reason: 'network', detail: err.message }))
      },
    )
    const onAbort = (): void => {
      http.destroy()
      finish({ kind: 'failed', reason: 'aborted', detail: 'aborted' })
    }
    const timer = setTimeout(() => {
      http.destroy()
      finish({ kind: 'failed', reason: 'timeout', detail: `no answer within ${req.timeoutMs} ms` })
    }, req.timeoutMs)
    if (req.signal?.aborted) return onAbort()
    req.signal?.addEventListener('abort', onAbort, { once: true })
    http.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'failed', reason: 'network', detail: err.code ?? err.message }))
    http.end(req.body)
  })
}
