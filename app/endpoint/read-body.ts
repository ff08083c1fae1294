import type { IncomingMessage } from 'node:http'
import { EndpointError } from './openai-error'

/** Large enough for a prompt with a few images in base64. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024

/** The request's body, which the endpoint reads to find `model` before it picks the server. */
export async function readBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > max) throw new EndpointError(413, 'invalid_request_error', `the request body is over ${Math.round(max / 1024 / 1024)} MiB`, 'body_too_large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The `model` of a JSON body; undefined when the body is not JSON or names none (llama-server then judges the body). */
export function modelOf(req: IncomingMessage, body: Buffer): unknown {
  if (body.length === 0 || !/json/i.test(req.headers['content-type'] ?? 'application/json')) return undefined
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>).model : undefined
  } catch {
    return undefined
  }
}
