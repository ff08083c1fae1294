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

/** The OpenAI-compatible base URL a client on this machine uses (a wildcard bind is reached through loopback). */
export function clientBaseUrl(host: string | null, port: number): string {
  const h = host === null || host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}/v1`
}
