import { request, type Agent } from 'node:http'

export interface ClientAnswer {
  readonly status: number
  readonly body: string
  /** The SSE events' data, parsed where it is JSON. */
  readonly events: unknown[]
}

/** One request to the endpoint as an outside client sends it (a fresh connection unless an agent is given). */
export function call(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  agent: Agent | false = false,
  onFirstData?: () => void,
): Promise<ClientAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? '' : JSON.stringify(body)
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          if (text === '') onFirstData?.()
          text += c
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, events: sseEvents(text) }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

export function sseEvents(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => {
      const data = l.slice(6).trim()
      try {
        return JSON.parse(data) as unknown
      } catch {
        return data
      }
    })
}

/** Starts a stream and leaves after `events` SSE events (and `beforeLeaving`), destroying the connection. */
export function leaveStreamAfter(
  port: number,
  body: unknown,
  events: number,
  beforeLeaving: () => Promise<void> = async () => {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/chat/completions',
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let seen = 0
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          seen += c.split('data: ').length - 1
          if (seen >= events && !res.isPaused()) {
            res.pause()
            beforeLeaving().then(() => {
              req.destroy()
              resolve()
            }, reject)
          }
        })
        res.on('end', () => reject(new Error('the stream ended before the client left')))
      },
    )
    req.on('error', () => {})
    req.end(JSON.stringify(body))
  })
}
