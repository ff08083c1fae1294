import type { IncomingMessage, ServerResponse } from 'node:http'
import { isIP } from 'node:net'
import { hostname, networkInterfaces } from 'node:os'
import { EndpointError } from './openai-error'

/**
 * What web pages may do with the endpoint. A page on another origin can send
 * requests to http://127.0.0.1:8080 from the user's browser; only a CORS grant
 * lets it read the answers, and only the Host check stops a DNS-rebinding page
 * (evil.example re-pointed at 127.0.0.1) from being "same origin" with it.
 * Both apply to every path, /health included: a rebinding page must not even
 * learn that the app runs or which model loads.
 */

/** Methods that only read: a page without a grant cannot see their answer. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The name part of a Host header, lowercased, without port, brackets or a trailing dot. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase()
  const bracketed = /^\[([^\]]+)\](?::\d*)?$/.exec(h)
  if (bracketed) return bracketed[1] as string
  const name = h.split(':').length === 2 ? (h.split(':')[0] as string) : h
  return name.replace(/\.$/, '')
}

const isWildcard = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '[::]'

/** Asking the OS for the interfaces takes ~150 us on a busy 2-core machine: once per few seconds is enough. */
const MACHINE_NAMES_TTL_MS = 5000
let machineNamesCache: { readonly at: number; readonly names: readonly string[] } | null = null

/** This machine's names and addresses, which a client on the network may put in Host (asked again after a while: DHCP moves them). */
function machineNames(): readonly string[] {
  const now = Date.now()
  if (machineNamesCache && now - machineNamesCache.at < MACHINE_NAMES_TTL_MS) return machineNamesCache.names
  const names = [hostname().toLowerCase(), `${hostname().toLowerCase()}.local`]
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.push(a.address.toLowerCase().replace(/%.*$/, ''))
  machineNamesCache = { at: now, names }
  return names
}

/**
 * Whether `header` names this listener: localhost or a loopback address, the
 * bound address (for a wildcard bind: this machine's names and addresses), or
 * a configured name. Any port: an SSH tunnel or WSL forward may change it,
 * and a rebinding page is told apart by its name, not its port.
 */
export function isOwnHost(header: string | undefined, listenerHost: string, allowedHosts: readonly string[]): boolean {
  // Browsers always send Host; a client without one (HTTP/1.0) is no page.
  if (header === undefined) return true
  const name = hostName(header)
  // 0.0.0.0 and :: reach this machine too (curl http://0.0.0.0:8080); an address cannot be rebound, and pages are held by the Origin check.
  if (name === 'localhost' || name === '::1' || name === '0.0.0.0' || name === '::' || (isIP(name) === 4 && name.startsWith('127.')))
    return true
  if (allowedHosts.some((h) => hostName(h) === name)) return true
  const bound = hostName(listenerHost)
  if (isWildcard(listenerHost.trim())) return machineNames().includes(name)
  return name === bound
}

/** An origin as browsers send it: scheme://host[:port], lowercased, without a trailing slash. */
const normalOrigin = (origin: string): string => origin.trim().toLowerCase().replace(/\/$/, '')

/** The request's Origin when the user allowed it, else null. */
export function grantedOrigin(req: IncomingMessage, allowedOrigins: readonly string[]): string | null {
  const origin = req.headers.origin
  if (origin === undefined) return null
  return allowedOrigins.some((o) => normalOrigin(o) === normalOrigin(origin)) ? origin : null
}

/**
 * Refuses, with a 403, a request whose Host is not this listener's, and a
 * state-changing one (a completion runs, a profile switches) from a page
 * whose origin the user did not allow.
 */
export function checkBrowserAccess(
  req: IncomingMessage,
  listenerHost: string,
  allowedHosts: readonly string[],
  allowedOrigins: readonly string[],
): void {
  if (!isOwnHost(req.headers.host, listenerHost, allowedHosts)) {
    const name = hostName(req.headers.host ?? '')
    throw new EndpointError(
      403,
      'permission_error',
      `The Host "${name}" is not a name of this endpoint, so the request was refused as a possible DNS-rebinding attack: connect ` +
        `through localhost or this machine's address, or add "${name}" to the setting endpointAllowedHosts.`,
      'host_not_allowed',
    )
  }
  const origin = req.headers.origin
  if (origin !== undefined && !SAFE_METHODS.has(req.method ?? 'GET') && grantedOrigin(req, allowedOrigins) === null) {
    throw new EndpointError(
      403,
      'permission_error',
      `A web page from ${origin} may not send requests to this endpoint: add that origin to the setting endpointAllowedOrigins if you ` +
        `trust the page.`,
      'origin_not_allowed',
    )
  }
}

/** Sets the CORS grant for an allowed origin on every answer (the server's own grants are dropped in forward.ts). */
export function grantOrigin(req: IncomingMessage, res: ServerResponse, allowedOrigins: readonly string[]): void {
  res.setHeader('vary', 'Origin')
  const origin = grantedOrigin(req, allowedOrigins)
  if (origin !== null) res.setHeader('access-control-allow-origin', origin)
}

/**
 * Answers a CORS preflight itself (never llama-server, which grants any
 * origin): the grant (set by grantOrigin) only for an allowed origin, whose
 * page may then send the headers it asked for (OpenAI's browser SDK sends its
 * own x-stainless-* ones).
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, allowedOrigins: readonly string[]): void {
  const headers: Record<string, string> = { allow: 'GET, HEAD, POST, OPTIONS' }
  if (grantedOrigin(req, allowedOrigins) !== null) {
    headers['access-control-allow-methods'] = 'GET, HEAD, POST, OPTIONS'
    const asked = req.headers['access-control-request-headers']
    if (asked) headers['access-control-allow-headers'] = asked
    headers['access-control-max-age'] = '600'
    res.setHeader('vary', 'Origin, Access-Control-Request-Headers')
  }
  res.writeHead(204, headers)
  res.end()
}
