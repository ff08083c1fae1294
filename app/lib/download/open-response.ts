import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { DownloadError } from './download-error'

/** Headers that carry credentials: sent to the host the caller named, never to a redirect target on another host. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization'])

export interface OpenRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly signal?: AbortSignal
  readonly maxRedirects: number
  /** Ms without a byte (connect, headers, body) before the socket is given up. */
  readonly idleTimeoutMs: number
}

export interface OpenedResponse {
  readonly res: IncomingMessage
  /** The URL that answered (after redirects). */
  readonly url: string
}

/**
 * A GET whose redirects (301, 302, 303, 307, 308) are followed; credential
 * headers go only to the original host (a Hub's 302 to a CDN must not carry
 * the token). Resolves with the first non-redirect answer, body unread.
 */
export async function openResponse(req: OpenRequest): Promise<OpenedResponse> {
  const origin = parseUrl(req.url, req.url)
  let current = origin
  for (let hop = 0; ; hop++) {
    const sameHost = current.host === origin.host && current.protocol === origin.protocol
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) {
      if (sameHost || !CREDENTIAL_HEADERS.has(k.toLowerCase())) headers[k] = v
    }
    const res = await getOnce(current, headers, req)
    const status = res.statusCode ?? 0
    const location = res.headers.location
    if (![301, 302, 303, 307, 308].includes(status) || !location) return { res, url: current.toString() }
    res.resume() // drain the redirect's body
    if (hop >= req.maxRedirects) {
      throw new DownloadError(
        `Download of ${origin} stopped after ${req.maxRedirects} redirects; the server redirects in a loop, try again later.`,
        { kind: 'too-many-redirects', url: req.url },
      )
    }
    current = parseUrl(new URL(location, current).toString(), req.url)
  }
}

function parseUrl(url: string, original: string): URL {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new DownloadError(`Cannot download "${url}": it is not a URL.`, { kind: 'bad-url', url: original })
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new DownloadError(`Cannot download "${url}": only http and https URLs are supported.`, { kind: 'bad-url', url: original })
  }
  return u
}

function getOnce(url: URL, headers: Record<string, string>, req: OpenRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (req.signal?.aborted) return reject(abortedError(req.url))
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const r = send(url, { method: 'GET', headers, agent: false, timeout: req.idleTimeoutMs }, (res) => {
      req.signal?.removeEventListener('abort', onAbort)
      resolve(res)
    })
    const onAbort = (): void => {
      r.destroy()
      reject(abortedError(req.url))
    }
    req.signal?.addEventListener('abort', onAbort, { once: true })
    r.on('timeout', () => r.destroy(Object.assign(new Error('idle timeout'), { code: 'ETIMEDOUT' })))
    r.on('error', (err: NodeJS.ErrnoException) => {
      req.signal?.removeEventListener('abort', onAbort)
      reject(connectError(err, url, req))
    })
    r.end()
  })
}

export function abortedError(url: string): DownloadError {
  return new DownloadError(`Download of ${url} was cancelled.`, { kind: 'aborted', url, resumable: true })
}

function connectError(err: NodeJS.ErrnoException, url: URL, req: OpenRequest): DownloadError {
  const code = err.code ?? ''
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new DownloadError(
      `Cannot reach ${url.host}: the name does not resolve (no network or DNS); check the connection and try again.`,
      { kind: 'offline', url: req.url, resumable: true, detail: code },
    )
  }
  if (code === 'ETIMEDOUT') {
    return new DownloadError(
      `${url.host} did not answer within ${Math.round(req.idleTimeoutMs / 1000)} s; check the connection and try again (the download ` +
        `resumes).`,
      { kind: 'timeout', url: req.url, resumable: true, detail: code },
    )
  }
  return new DownloadError(`Cannot connect to ${url.host} (${code || err.message}); check the connection or the address and try again.`, {
    kind: 'network',
    url: req.url,
    resumable: true,
    detail: code || err.message,
  })
}
