import { request } from 'node:http'

export type HealthResult =
  | { readonly kind: 'ready' }
  | { readonly kind: 'loading' }
  /** Nothing answers yet (refused, reset) or the answer did not come in time (ik hangs while loading). */
  | { readonly kind: 'down'; readonly detail: string }
  | { readonly kind: 'unexpected'; readonly status: number }

/**
 * One GET /health. 200 → ready, 503 → loading; anything else is reported as is.
 * Uses a fresh connection each time (no keep-alive pool left behind).
 */
export function probeHealth(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<HealthResult> {
  return new Promise((resolve) => {
    const hostname = host === 'localhost' || host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host.replace(/^\[|\]$/g, '')
    let settled = false
    const finish = (r: HealthResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      resolve(r)
    }
    const req = request({ hostname, port, path: '/health', method: 'GET', agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume()
      const status = res.statusCode ?? 0
      if (status === 200) finish({ kind: 'ready' })
      else if (status === 503) finish({ kind: 'loading' })
      else finish({ kind: 'unexpected', status })
    })
    const onAbort = (): void => {
      req.destroy()
      finish({ kind: 'down', detail: 'aborted' })
    }
    const timer = setTimeout(() => {
      req.destroy()
      finish({ kind: 'down', detail: 'timeout' })
    }, timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })
    req.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'down', detail: err.code ?? err.message }))
    req.end()
  })
}
