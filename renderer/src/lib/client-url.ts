/** The OpenAI-compatible base URL a client on this machine uses (a wildcard bind is reached through loopback). */
export function clientBaseUrl(host: string | null, port: number): string {
  const h = host === null || host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}/v1`
}

/** Whether the server listens beyond this machine. */
export function listensBeyondLoopback(host: string | null): boolean {
  return host !== null && host !== '127.0.0.1' && host !== 'localhost' && host !== '::1'
}
