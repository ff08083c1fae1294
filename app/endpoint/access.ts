import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { EndpointError } from './openai-error'

/** Paths anyone allowed to connect may call without the key, as llama-server does. */
const PUBLIC_PATHS = new Set(['/health', '/v1/health'])

/** A client on this machine (IPv4, IPv6 and IPv4-mapped loopback). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address)
}

function sameKey(given: string, key: string): boolean {
  // Hashes have equal lengths, so the comparison takes the same time whatever was sent.
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(key).digest()
  return timingSafeEqual(a, b)
}

/** The key a request carries: `Authorization: Bearer …` (OpenAI clients) or `x-api-key`. */
function keyOf(req: IncomingMessage): string | null {
  const auth = req.headers.authorization
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim()
  const x = req.headers['x-api-key']
  return typeof x === 'string' ? x.trim() : null
}

/**
 * Who may use the endpoint: without a key, only this machine; with a key,
 * anyone who sends it. Throws the OpenAI-style refusal.
 */
export function checkAccess(req: IncomingMessage, path: string, apiKey: string | null): void {
  if (apiKey === null) {
    if (isLoopbackAddress(req.socket.remoteAddress)) return
    throw new EndpointError(
      403,
      'permission_error',
      'requests from other machines are refused: the endpoint listens for this machine only until an API key is set (llama-tray serve ' +
        '--api-key-file FILE)',
    )
  }
  // A CORS preflight carries no key (browsers never send one with it); it is answered without a grant unless its origin is allowed.
  if (PUBLIC_PATHS.has(path) || req.method === 'OPTIONS') return
  const given = keyOf(req)
  if (given === null || !sameKey(given, apiKey))
    throw new EndpointError(
      401,
      'authentication_error',
      'invalid or missing API key: send it as "Authorization: Bearer <key>"',
      'invalid_api_key',
    )
}
