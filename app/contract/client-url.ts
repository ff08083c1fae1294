/**
 * Where a client reaches llama-server: shared by the supervisor (loopback
 * checks), the CLI and the dashboard, so they agree on what "local" means.
 */

/** A host only this machine can reach (or a unix socket). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase()
  if (h.endsWith('.sock')) return true // a unix socket is not a network listener
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/**
 * The host a client on this machine connects to for a server bound to `host`
 * (null: we added --host 127.0.0.1). A wildcard bind is reached through the
 * loopback of its family (0.0.0.0 → 127.0.0.1, :: → ::1: on Windows a bind
 * to :: takes IPv6 only); IPv6 brackets are dropped.
 */
export function connectHost(host: string | null): string {
  const h = host?.trim() ?? ''
  if (h === '' || h === '0.0.0.0' || h.toLowerCase() === 'localhost') return '127.0.0.1'
  if (h === '::' || h === '[::]') return '::1'
  return h.replace(/^\[(.*)\]$/, '$1')
}

/** http://host:port of a server bound to `host`, as a client on this machine reaches it. */
export function serverOrigin(host: string | null, port: number): string {
  const h = connectHost(host)
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`
}

/** The OpenAI-compatible base URL a client on this machine uses. */
export function clientBaseUrl(host: string | null, port: number): string {
  return `${serverOrigin(host, port)}/v1`
}
