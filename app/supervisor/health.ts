import { serverOrigin } from '../contract/client-url'
import { httpRequest } from '../lib/http-request'

export type HealthResult =
  | { readonly kind: 'ready' }
  | { readonly kind: 'loading' }
  /** Nothing answers yet (refused, reset) or the answer did not come in time (ik hangs while loading). */
  | { readonly kind: 'down'; readonly detail: string }
  | { readonly kind: 'unexpected'; readonly status: number }

/**
 * One GET /health. 200 → ready, 503 → loading; anything else is reported as is.
 * Uses a fresh connection each time (no keep-alive pool left behind).
 */
export async function probeHealth(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<HealthResult> {
  const r = await httpRequest({ url: `${serverOrigin(host, port)}/health`, timeoutMs, ...(signal ? { signal } : {}), maxBytes: 64 * 1024 })
  if (r.kind === 'failed') return { kind: 'down', detail: r.reason === 'timeout' || r.reason === 'aborted' ? r.reason : r.detail }
  if (r.status === 200) return { kind: 'ready' }
  if (r.status === 503) return { kind: 'loading' }
  return { kind: 'unexpected', status: r.status }
}
