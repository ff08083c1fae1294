import { serverOrigin } from '../contract/client-url'
import { downloadDetail, serverProgressSentence, sleepingDetail, type ServerStatus } from '../contract/server-state'
import type { Snapshot } from '../contract/snapshot'
import { pinnedStatusParts } from './pinned-lines'

function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

/** One compact line for the terminal: state, address, and the live figures the snapshot has (warnings go on their own lines). */
export function formatStatusLine(status: ServerStatus, snapshot: Snapshot | null = null, now = Date.now()): string {
  const parts: string[] = [status.state.toUpperCase().padEnd(9)]
  if (status.pid !== null) parts.push(`pid ${status.pid}`)
  if (status.port !== null) parts.push(serverOrigin(status.host, status.port))
  if (status.state === 'ready' || status.state === 'sleeping') parts.push(`up ${formatDuration(now - status.readySince)}`)
  if (status.state === 'backoff') parts.push(`restart in ${formatDuration(Math.max(0, status.restartAt - now) + 999)}`)
  if (status.restarts > 0) parts.push(`restarts ${status.restarts}`)
  const progress = serverProgressSentence(status)
  if (progress) parts.push(progress)
  else if (status.state === 'sleeping') parts.push(sleepingDetail(status.sleepIdleSeconds))
  if (status.state === 'downloading') parts.push(downloadDetail(status.download))
  // Early in the line: the row is cut to the terminal's width, and a waiting switch is what the user waits for.
  const pending = snapshot?.pendingSwitch
  if (pending?.when) parts.push(`switch to ${pending.profileId}: ${pending.when.charAt(0).toLowerCase()}${pending.when.slice(1, -1)}`)
  // The pinned servers beside it, in a word each.
  parts.push(...pinnedStatusParts(snapshot?.pinned))
  const tps = snapshot?.generation?.tokensPerSecond
  if (tps !== null && tps !== undefined) parts.push(`${tps.toFixed(1)} tok/s`)
  const last = snapshot?.generation?.last
  if (last && status.state === 'ready')
    parts.push(
      `last ${last.predictedTokensPerSecond.toFixed(1)} tok/s` +
        `${last.draftAcceptance !== null ? ` (draft ${(last.draftAcceptance * 100).toFixed(0)}%)` : ''}`,
    )
  const gpu = snapshot?.gpu?.devices[0]
  if (gpu?.memoryFreeMiB !== null && gpu?.memoryFreeMiB !== undefined) parts.push(`VRAM free ${(gpu.memoryFreeMiB / 1024).toFixed(1)} GB`)
  const cpu = snapshot?.cpu?.systemPct
  if (cpu !== null && cpu !== undefined) parts.push(`CPU ${cpu.toFixed(0)}%`)
  if ((status.state === 'errored' || status.state === 'crashloop' || status.state === 'backoff') && status.lastExit.reason) {
    parts.push(`: ${status.lastExit.reason}`)
  }
  return parts.join('  ')
}

/** Terminals of unknown width (a pipe reports none) are taken to be this wide. */
export const DEFAULT_COLUMNS = 80

/**
 * The line cut to what one terminal row holds, so that `\r` + erase-line can redraw it: a line that wraps
 * leaves its first rows behind on every redraw. One column is kept free because some terminals (Windows
 * conhost) wrap as soon as the last column is written.
 */
export function fitToWidth(line: string, columns: number | undefined): string {
  const width = Math.max(10, (columns !== undefined && columns > 0 ? columns : DEFAULT_COLUMNS) - 1)
  const chars = Array.from(line) // by code point, so a cut never splits a surrogate pair
  if (chars.length <= width) return line
  return `${chars
    .slice(0, width - 1)
    .join('')
    .trimEnd()}…`
}
