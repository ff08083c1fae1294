import type { IncomingHttpHeaders } from 'node:http'
import { DownloadError } from './download-error'
import { abortedError, openResponse } from './open-response'
import { isRateLimited, rateLimitResetAt } from './rate-limit'

export interface GetBodyRequest {
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  readonly signal?: AbortSignal
  readonly timeoutMs?: number
  /** The most body bytes read (default 32 MiB). */
  readonly maxBytes?: number
}

export interface GetBodyResult {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
  /** The URL that answered, after redirects. */
  readonly url: string
}

/**
 * A small GET over http or https (an API's JSON), redirects followed as in a
 * download. Any status is a value; a rate limit is thrown as `rate-limited`,
 * and no network as `offline`/`network` (DownloadError).
 */
export async function getBody(req: GetBodyRequest): Promise<GetBodyResult> {
  const max = req.maxBytes ?? 32 * 1024 * 1024
  const { res, url } = await openResponse({
    url: req.url,
    headers: { 'accept-encoding': 'identity', ...req.headers },
    signal: req.signal,
    maxRedirects: 10,
    idleTimeoutMs: req.timeoutMs ?? 30_000,
  })
  const status = res.statusCode ?? 0
  if (isRateLimited(status, res.headers)) {
    res.resume()
    const at = rateLimitResetAt(res.headers)
    const host = new URL(req.url).host
    const when = at ? `try again after ${at.toISOString().replace(/\.\d+Z$/, 'Z')}` : 'wait a while and try again'
    throw new DownloadError(`${host} is rate limiting requests (HTTP ${status}); ${when}, or set a token to raise the limit.`, {
      kind: 'rate-limited',
      url: req.url,
      status,
      ...(at ? { retryAt: at } : {}),
    })
  }
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > max) {
        res.destroy()
        throw new DownloadError(`The answer from ${new URL(req.url).host} is larger than ${max} bytes; this is not the API we expected.`, {
          kind: 'http',
          url: req.url,
          status,
        })
      }
      chunks.push(chunk)
    }
  } catch (err) {
    if (err instanceof DownloadError) throw err
    if (req.signal?.aborted) throw abortedError(req.url)
    throw new DownloadError(`The connection to ${new URL(req.url).host} ended before the answer was complete; try again.`, {
      kind: 'cut',
      url: req.url,
      resumable: true,
    })
  }
  return { status, headers: res.headers, body: Buffer.concat(chunks), url }
}
