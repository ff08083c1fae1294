import { request, type Agent, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { serverOrigin } from '../contract/client-url'
import type { AdmissionError } from './backend'
import { EndpointError, errorEvent } from './openai-error'
import { FiguresTap } from './request-figures'

/** Where the supervised llama-server listens now (a private loopback port), and its key. */
export interface Upstream {
  readonly host: string
  readonly port: number
  readonly apiKey: string | null
  /** The server's process, when known: which server a lost request was lost on. */
  readonly pid?: number | null
}

// Hop-by-hop headers (RFC 9110 §7.6.1) and those the endpoint sets itself.
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'authorization',
  'x-api-key',
  'content-length',
])

function passedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !DROPPED.has(k)) out[k] = v
  return out
}

/**
 * The server's answer headers without its CORS grants: llama-server echoes any
 * Origin (with credentials allowed), which would lend its answers to every web
 * page; the endpoint grants allowed origins itself (browser-guard.ts).
 */
function answerHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out = passedHeaders(headers)
  for (const k of Object.keys(out)) if (k.startsWith('access-control-')) delete out[k]
  return out
}

export type ForwardResult =
  /** The answer passed through (completely, or until the client left or the server broke mid-answer). */
  | { readonly kind: 'answered'; readonly status: number; readonly tap: FiguresTap; readonly stream: boolean; readonly broke: boolean }
  /** No answer began: the server was not reachable (it may be restarting or switching); the request can be sent again. */
  | { readonly kind: 'unreachable'; readonly error: Error }
  /** The server took the whole request and went away before answering (it crashed on it, most likely): never sent again. */
  | { readonly kind: 'lost'; readonly error: Error }
  /** A switch cut the request before its answer began. */
  | { readonly kind: 'cut'; readonly reason: AdmissionError }

/** Yields the server's answer; if it breaks mid-stream (or a switch cuts it), ends an SSE answer with an error event instead. */
async function* untilBroken(
  answer: IncomingMessage,
  sse: boolean,
  cut: AbortSignal | undefined,
  onBreak: () => void,
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of answer) yield chunk as Buffer
  } catch (err) {
    onBreak()
    if (!sse) throw err
    const reason = cut?.aborted ? (cut.reason as AdmissionError) : null
    yield Buffer.from(
      errorEvent(
        reason
          ? new EndpointError(503, 'unavailable_error', reason.message, reason.code)
          : new EndpointError(
              502,
              'server_error',
              `llama-server stopped in the middle of this answer (${(err as Error).message}); the next request waits for its restart`,
              'upstream_broken',
            ),
      ),
    )
  }
}

/**
 * Sends one request (its body already read) to the server and passes the
 * answer back as it comes: no buffering, backpressure through pipeline, the
 * server's request aborted when the client goes away. `cut` (a switch's) ends
 * the request: an SSE answer with an error event naming the switch.
 */
export function forward(
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  upstream: Upstream,
  agent: Agent,
  cut?: AbortSignal,
): Promise<ForwardResult> {
  return new Promise((resolve) => {
    let answering: IncomingMessage | null = null
    const onCut = (): void => {
      if (answering) {
        answering.destroy(cut?.reason as Error)
        up.destroy()
      } else {
        res.off('close', clientGone)
        resolve({ kind: 'cut', reason: cut?.reason as AdmissionError })
        up.destroy()
      }
    }
    const headers = passedHeaders(req.headers)
    headers.host = new URL(serverOrigin(upstream.host, upstream.port)).host // [::1]:port for IPv6
    if (upstream.apiKey !== null) headers.authorization = `Bearer ${upstream.apiKey}`
    if (body.length > 0 || req.method === 'POST' || req.method === 'PUT') headers['content-length'] = String(body.length)
    const up = request({ host: upstream.host, port: upstream.port, method: req.method, path: req.url, headers, agent })
    const clientGone = (): void => {
      if (!res.writableFinished) up.destroy()
    }
    res.once('close', clientGone)
    let sent = false
    up.once('finish', () => (sent = true))
    up.on('error', (error) => {
      if (!res.headersSent) {
        res.off('close', clientGone)
        const refused = (error as NodeJS.ErrnoException).code === 'ECONNREFUSED'
        resolve(sent && !refused && !cut?.aborted ? { kind: 'lost', error } : { kind: 'unreachable', error })
      }
    })
    up.once('response', (answer) => {
      answering = answer
      const status = answer.statusCode ?? 502
      const sse = /text\/event-stream/i.test(answer.headers['content-type'] ?? '')
      const tap = new FiguresTap(sse)
      let broke = false
      res.writeHead(status, answerHeaders(answer.headers))
      res.flushHeaders()
      pipeline(
        untilBroken(answer, sse, cut, () => (broke = true)),
        tap,
        res,
      )
        .finally(() => cut?.removeEventListener('abort', onCut))
        .then(
          () => resolve({ kind: 'answered', status, tap, stream: sse, broke }),
          () => resolve({ kind: 'answered', status, tap, stream: sse, broke: broke || !res.writableFinished }),
        )
    })
    if (cut?.aborted) onCut()
    else cut?.addEventListener('abort', onCut, { once: true })
    up.end(body)
  })
}
