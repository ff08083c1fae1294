import { serverOrigin } from '../contract/client-url'
import type { ServerStatus } from '../contract/server-state'

/** How long each probe after a resume may take (a CUDA context coming back can be slow, a hung one never answers). */
export const RESUME_PROBE_TIMEOUT_MS = 20_000

/**
 * After the machine slept: does the server still answer? /health, and where it was ready a one-token completion
 * (a server whose GPU context broke in the sleep answers /health but fails to generate). An answer that refuses the
 * API key still shows a working server.
 */
export async function serverAnswersAfterResume(status: ServerStatus, timeoutMs = RESUME_PROBE_TIMEOUT_MS): Promise<boolean> {
  if (status.host === null || status.port === null) return false
  const origin = serverOrigin(status.host, status.port)
  try {
    const health = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(timeoutMs) })
    await health.arrayBuffer()
    if (!health.ok) return false
    if (status.state !== 'ready') return true
    const completion = await fetch(`${origin}/completion`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: ' ', n_predict: 1, cache_prompt: false }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    await completion.arrayBuffer()
    return completion.ok || completion.status === 401
  } catch {
    return false
  }
}
