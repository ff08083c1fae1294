import { httpRequest } from '../lib/http-request'
import { parseSlotsText, type SlotReading } from './slots-parser'

export type SlotsFetchResult =
  /** `time`: monotonic ms when the answer's headers arrived (≈ when the server read its slots). */
  | { readonly kind: 'ok'; readonly slots: SlotReading[]; readonly time: number }
  /** No answer within the timeout: the server is busy, not dead. */
  | { readonly kind: 'slow'; readonly detail: string }
  /** Nothing listens (refused, reset): the server is gone or restarting. */
  | { readonly kind: 'down'; readonly detail: string }
  | { readonly kind: 'unauthorized'; readonly detail: string }
  /** /slots is disabled (--no-slots) or not routed. */
  | { readonly kind: 'unavailable'; readonly detail: string }
  | { readonly kind: 'error'; readonly detail: string }
  | { readonly kind: 'aborted'; readonly detail: string }

export interface FetchSlotsOptions {
  readonly apiKey?: string | null
  readonly timeoutMs: number
  readonly signal?: AbortSignal
  /** ik_llama includes each slot's full prompt text: cap what we read. */
  readonly maxBytes?: number
}

/**
 * One GET /slots on a fresh connection (agent: false, so no keep-alive socket
 * outlives the call). Never rejects.
 */
export async function fetchSlots(url: string, options: FetchSlotsOptions): Promise<SlotsFetchResult> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024
  const r = await httpRequest({
    url,
    headers,
    timeoutMs: options.timeoutMs,
    maxBytes,
    ...(options.signal ? { signal: options.signal } : {}),
  })
  if (r.kind === 'failed') {
    switch (r.reason) {
      case 'timeout':
        return { kind: 'slow', detail: r.detail }
      case 'aborted':
        return { kind: 'aborted', detail: 'aborted' }
      case 'network':
        return { kind: 'down', detail: r.detail }
      case 'too-large':
        return { kind: 'error', detail: `/slots answer larger than ${maxBytes} bytes` }
      case 'bad-url':
        return { kind: 'error', detail: r.detail }
    }
  }
  const status = r.status
  if (status === 401 || status === 403)
    return { kind: 'unauthorized', detail: `HTTP ${status}: ${options.apiKey ? 'the API key was refused' : 'the server needs an API key'}` }
  if (status === 501 || status === 404) return { kind: 'unavailable', detail: `HTTP ${status}: /slots is disabled on this server` }
  if (status === 503) return { kind: 'slow', detail: 'HTTP 503: loading or no slot available' }
  if (status !== 200) return { kind: 'error', detail: `HTTP ${status}` }
  const slots = parseSlotsText(r.body.toString('utf8'))
  return slots ? { kind: 'ok', slots, time: r.headersAt } : { kind: 'error', detail: '/slots answered something that is not a slot list' }
}
