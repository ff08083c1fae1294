import type { ServerStatus } from '../contract/server-state'

function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

/** One compact line for the terminal. */
export function formatStatusLine(status: ServerStatus, now = Date.now()): string {
  const parts: string[] = [status.state.toUpperCase().padEnd(9)]
  if (status.pid !== null) parts.push(`pid ${status.pid}`)
  if (status.port !== null) parts.push(`http://${status.host ?? '127.0.0.1'}:${status.port}`)
  if (status.readySince !== null) parts.push(`up ${formatDuration(now - status.readySince)}`)
  if (status.restartAt !== null) parts.push(`restart in ${formatDuration(Math.max(0, status.restartAt - now) + 999)}`)
  if (status.restarts > 0) parts.push(`restarts ${status.restarts}`)
  if ((status.state === 'errored' || status.state === 'crashloop' || status.state === 'backoff') && status.lastExit?.reason) {
    parts.push(`: ${status.lastExit.reason}`)
  }
  return parts.join('  ')
}
