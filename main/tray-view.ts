import type { ProfileSummary } from '../app/contract/profile'
import {
  downloadDetail,
  serverProgressSentence,
  sleepingDetail,
  type ServerStateKind,
  type ServerStatus,
} from '../app/contract/server-state'
import type { PendingSwitch } from '../app/contract/snapshot'
import type { Warning } from '../app/contract/warnings'

/** Everything the tray shows, gathered from the core's events. */
export interface TrayView {
  readonly status: ServerStatus
  readonly profiles: readonly ProfileSummary[]
  readonly activeProfileId: string | null
  /** Live generation rate; null when nothing is generating. */
  readonly tokensPerSecond: number | null
  /** Free memory of the first GPU; null when unknown. */
  readonly freeVramMiB: number | null
  readonly warnings: readonly Warning[]
  /** The port of the one endpoint clients use, while it runs (the server behind it then has a private port). */
  readonly endpointPort?: number | null
  /** How many pinned profiles' servers run beside the active one (the tooltip says "+1 pinned"). */
  readonly pinnedCount?: number
  /** A switch that waits for the running requests (the scheduler's): when it happens, and "Switch now". */
  readonly pendingSwitch?: PendingSwitch | null
}

export const TRAY_ICON_STATES = ['stopped', 'loading', 'ready', 'warning', 'error'] as const
export type TrayIconState = (typeof TRAY_ICON_STATES)[number]

/** Windows keeps 128 UTF-16 units for the tip, including the terminating NUL. */
export const TOOLTIP_MAX = 127

const STATE_LABELS: Readonly<Record<ServerStateKind, string>> = {
  stopped: 'Stopped',
  starting: 'Starting',
  downloading: 'Downloading model',
  loading: 'Loading model',
  ready: 'Ready',
  sleeping: 'Sleeping',
  stopping: 'Stopping',
  backoff: 'Crashed, restarting',
  crashloop: 'Crashed repeatedly, gave up',
  errored: 'Failed',
}

export function stateLabel(state: ServerStateKind): string {
  return STATE_LABELS[state]
}

export { isRunning } from '../app/contract/server-state'

export function trayIconState(view: Pick<TrayView, 'status' | 'warnings'>): TrayIconState {
  switch (view.status.state) {
    case 'errored':
    case 'crashloop':
      return 'error'
    case 'backoff':
      return 'warning'
    case 'starting':
    case 'downloading':
    case 'loading':
    case 'stopping':
      return 'loading'
    // Asleep is calm: the server is there and the next request wakes it.
    case 'sleeping':
    case 'ready':
      return view.warnings.some((w) => w.level !== 'info') ? 'warning' : 'ready'
    case 'stopped':
      return 'stopped'
  }
}

export function profileName(view: Pick<TrayView, 'profiles'>, id: string | null): string | null {
  if (id === null) return null
  return view.profiles.find((p) => p.id === id)?.name ?? id
}

export function formatRate(tokensPerSecond: number): string {
  return `${tokensPerSecond >= 100 ? tokensPerSecond.toFixed(0) : tokensPerSecond.toFixed(1)} tok/s`
}

export function formatFreeVram(mib: number): string {
  return mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB VRAM free` : `${Math.round(mib)} MiB VRAM free`
}

/**
 * "Llama Tray: Ready\n<profile> +1 pinned\n23.4 tok/s · 5.2 GiB VRAM free", never over
 * 127 UTF-16 units: the profile name gives way first, then the whole text is cut.
 */
export function trayTooltip(view: TrayView): string {
  const head = `Llama Tray: ${stateLabel(view.status.state)}`
  const figures: string[] = []
  const progress = serverProgressSentence(view.status)
  if (progress) figures.push(progress)
  else if (view.status.state === 'sleeping') figures.push(sleepingDetail(view.status.sleepIdleSeconds))
  if (view.status.state === 'downloading') figures.push(downloadDetail(view.status.download))
  if (view.status.state === 'ready' && view.tokensPerSecond !== null && Number.isFinite(view.tokensPerSecond) && view.tokensPerSecond > 0)
    figures.push(formatRate(view.tokensPerSecond))
  if (view.freeVramMiB !== null && Number.isFinite(view.freeVramMiB) && view.freeVramMiB >= 0)
    figures.push(formatFreeVram(view.freeVramMiB))
  const tail = figures.length > 0 ? `\n${figures.join(' · ')}` : ''
  const name = profileName(view, view.status.profileId ?? view.activeProfileId)
  const pinned = view.pinnedCount ? ` +${view.pinnedCount} pinned` : ''
  if (name === null) return clip(head + (pinned ? `\n${pinned.trim()}` : '') + tail, TOOLTIP_MAX)
  const room = TOOLTIP_MAX - head.length - tail.length - pinned.length - 1
  const text = room >= 8 ? `${head}\n${clip(oneLine(name), room)}${pinned}${tail}` : head + tail
  return clip(text, TOOLTIP_MAX)
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Cuts to `max` UTF-16 units with an ellipsis, never splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max - 1
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${text.slice(0, end)}…`
}
