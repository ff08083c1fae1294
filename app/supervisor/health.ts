import { connect } from 'node:net'
import { connectHost } from '../contract/client-url'

export type HealthResult =
  | { readonly kind: 'ready' }
  | { readonly kind: 'loading' }
  /** Nothing answers yet (refused, reset) or the answer did not come in time (ik hangs while loading). */
  | { readonly kind: 'down'; readonly detail: string }
  | { readonly kind: 'unexpected'; readonly status: number }

/** A status line longer than this is not an HTTP answer. */
const MAX_HEAD_BYTES = 4096

/**
 * One GET /health. 200 → ready, 503 → loading; anything else is reported as is. `timeoutMs` null: no timer of
 * its own, the signal ends it (the watchdog's tick, whose one timer also ends the pause after it).
 *
 * A fresh connection each time (no keep-alive pool left behind), written by hand and read up to the
 * status line only: the watchdog asks for hours while nothing else happens, and node:http's client
 * cost about twice the CPU per probe (≈ 2.3–4 ms against 1.4–2.7 ms on 2 busy cores, `npm run bench idle`).
 */
export function probeHealth(host: string, port: number, timeoutMs: number | null, signal?: AbortSignal): Promise<HealthResult> {
  if (signal?.aborted) return Promise.resolve({ kind: 'down', detail: 'aborted' })
  const target = connectHost(host)
  const hostHeader = `${target.includes(':') ? `[${target}]` : target}:${port}`
  return new Promise((resolve) => {
    const socket = connect({ host: target, port })
    let head = ''
    let settled = false
    const finish = (result: HealthResult): void => {
      if (settled) return
      settled = true
      if (timer !== null) clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      socket.destroy()
      resolve(result)
    }
    const onAbort = (): void => finish({ kind: 'down', detail: 'aborted' })
    const timer = timeoutMs === null ? null : setTimeout(() => finish({ kind: 'down', detail: 'timeout' }), timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })
    socket.setEncoding('latin1')
    socket.on('connect', () => socket.write(`GET /health HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`))
    socket.on('data', (text: string) => {
      head += text
      const lineEnd = head.indexOf('\r\n')
      if (lineEnd < 0) {
        if (head.length > MAX_HEAD_BYTES) finish({ kind: 'down', detail: 'no HTTP status line' })
        return
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.slice(0, lineEnd))
      if (!status) return finish({ kind: 'down', detail: `not an HTTP answer: ${JSON.stringify(head.slice(0, 60))}` })
      const code = Number(status[1])
      finish(code === 200 ? { kind: 'ready' } : code === 503 ? { kind: 'loading' } : { kind: 'unexpected', status: code })
    })
    socket.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'down', detail: err.code ?? err.message }))
    socket.on('close', () => finish({ kind: 'down', detail: 'the connection closed before an answer' }))
  })
}
