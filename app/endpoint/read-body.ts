import type { IncomingMessage } from 'node:http'
import { EndpointError } from './openai-error'

const MIB = 1024 * 1024

function tooLarge(maxMiB: number): EndpointError {
  return new EndpointError(
    413,
    'invalid_request_error',
    `The request body is larger than the endpoint's limit of ${maxMiB} MiB: send a smaller request, or raise the setting ` +
      `endpointMaxBodyMiB.`,
    'body_too_large',
  )
}

/**
 * The request's body, which the endpoint reads to find `model` before it picks
 * the server. Never holds more than `maxMiB`: a declared Content-Length over it
 * is refused before a byte is read, and a body that grows past it is dropped
 * (the rest is discarded by discardRest).
 */
export function readBody(req: IncomingMessage, maxMiB: number): Promise<Buffer> {
  const max = maxMiB * MIB
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > max) return Promise.reject(tooLarge(maxMiB))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (err: Error | null): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
      if (err) reject(err)
      else resolve(Buffer.concat(chunks, size))
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size <= max) return void chunks.push(chunk)
      req.pause()
      chunks.length = 0
      done(tooLarge(maxMiB))
    }
    const onEnd = (): void => done(null)
    const onError = (err: Error): void => done(err)
    const onClose = (): void =>
      done(new EndpointError(499, 'invalid_request_error', 'The client went away before its request body arrived.', 'client_closed'))
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('error', onError)
    req.once('close', onClose)
  })
}

/** Past this, the rest of a refused body is not even read: the connection is closed. */
const DISCARD_MAX_BYTES = 256 * MIB

/**
 * Reads and throws away the rest of a refused body, so that a client which
 * sends all of it before it reads (most do) gets the 413 rather than a reset
 * connection; a client that sends more than DISCARD_MAX_BYTES is cut off.
 */
export function discardRest(req: IncomingMessage): void {
  if (req.complete) return
  let discarded = 0
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > DISCARD_MAX_BYTES) req.socket.destroy()
  })
  req.resume()
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
