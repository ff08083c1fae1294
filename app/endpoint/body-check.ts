import type { IncomingMessage } from 'node:http'
import { EndpointError } from './openai-error'

/**
 * What a routed JSON body must be before it goes to llama-server: UTF-8, JSON, and nested at most MAX_JSON_DEPTH
 * levels. llama-server answered the first two with a 500 and its parser's words, and a body nested 10^6 levels
 * deep crashed it (SIGSEGV) for every client of the model.
 */

/** Real requests nest a few levels (messages, content parts, a tool's JSON schema): 128 leaves schemas room. */
export const MAX_JSON_DEPTH = 128

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true })

/** The deepest nesting of arrays and objects, counted on the bytes (outside strings), stopping past `limit`. */
export function jsonDepth(body: Buffer, limit = MAX_JSON_DEPTH): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (inString) {
      if (c === 0x5c)
        i++ // a backslash: the next byte is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

/** The routes whose POST body llama-server parses as JSON, an empty one included. */
const TAKES_JSON = /^\/(v1\/)?(chat\/completions|completions?|embeddings?|infill|rerank|reranking|tokenize|detokenize|apply-template)$/

/** Throws a 400 in the OpenAI error shape for a POST body that is not UTF-8, not JSON, or too deep; multipart passes. */
export function checkJsonBody(req: IncomingMessage, body: Buffer, path = ''): void {
  if (req.method !== 'POST') return
  // An empty body where llama-server parses one: its parser's 500 ("attempting to parse an empty input").
  if (body.length === 0) {
    if (!TAKES_JSON.test(path)) return
    throw new EndpointError(400, 'invalid_request_error', 'The request has no body: send the request as JSON.', 'invalid_body')
  }
  // llama-server parses every POST body as JSON whatever its content type (text/plain too: a parser's 500); only a
  // multipart upload is not JSON.
  if (/^\s*multipart\//i.test(req.headers['content-type'] ?? '')) return
  let text: string
  try {
    text = fatalUtf8.decode(body)
  } catch {
    throw new EndpointError(
      400,
      'invalid_request_error',
      'The request body is not valid UTF-8: send the JSON as UTF-8 text.',
      'invalid_body',
    )
  }
  if (jsonDepth(body) > MAX_JSON_DEPTH)
    throw new EndpointError(
      400,
      'invalid_request_error',
      `The request body nests more than ${MAX_JSON_DEPTH} levels deep: flatten it (llama-server would crash on it).`,
      'body_too_deep',
    )
  try {
    JSON.parse(text)
  } catch (err) {
    throw new EndpointError(
      400,
      'invalid_request_error',
      `The request body is not JSON (${(err as Error).message.split('\n')[0]?.slice(0, 80)}): send a JSON object.`,
      'invalid_body',
    )
  }
}
