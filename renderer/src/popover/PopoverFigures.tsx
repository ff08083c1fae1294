import type { ServerStateKind } from '../../../app/contract/server-state'
import { formatMiB, formatPerThousandTokens, formatRate } from '../lib/format'
import { gpuReasonSummary } from '../lib/gpu-reason'
import { heaviestOtherApp } from '../lib/popover-picks'
import { powerText } from '../lib/power-text'
import { useSettingsStore } from '../stores/settings-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import { TodayLine } from './TodayLine'

// The popover's figures: live tok/s large, then VRAM, CPU and the heaviest
// other app, one line each; today's tokens, the GPU energy per 1,000 tokens and the power source where known. Selectors return primitives (1 Hz snapshots).

const ready = (s: ReturnType<typeof useSnapshotStore.getState>): boolean => s.snapshot?.server.state === 'ready'

/** What the big figure says when there is no rate: a word for the state, never a bare dash. */
function rateWord(state: ServerStateKind | null): string {
  if (state === null) return 'connecting…'
  if (state === 'ready') return 'idle'
  if (state === 'sleeping') return 'asleep'
  if (state === 'starting' || state === 'downloading' || state === 'loading' || state === 'backoff') return 'starting…'
  return 'not running'
}

function Rate(): React.JSX.Element {
  const state = useSnapshotStore((s) => s.snapshot?.server.state ?? null)
  const active = useSnapshotStore((s) => s.snapshot?.generation?.active ?? false)
  const rate = useSnapshotStore((s) => (ready(s) ? (s.snapshot?.generation?.tokensPerSecond ?? null) : null))
  const usual = useSnapshotStore((s) => (ready(s) ? (s.snapshot?.generation?.rolling?.medianTokensPerSecond ?? null) : null))
  const generating = state === 'ready' && active && rate !== null
  const word = rateWord(state)
  return (
    <p className="pop-rate" data-testid="live-rate" data-active={generating ? 'true' : 'false'}>
      <span className="visually-hidden">Generation speed: </span>
      <span className={generating ? 'pop-rate-value' : 'pop-rate-value quiet'}>{generating ? formatRate(rate) : word}</span>
      {generating && <span className="pop-unit">tok/s</span>}
      {usual !== null && (
        <span className="pop-usual" data-testid="usual-rate">
          usual {formatRate(usual)} tok/s
        </span>
      )}
    </p>
  )
}

/** A ratio as a bar's width in percent, held to 0–100. */
function percent(ratio: number): number {
  return Math.max(0, Math.min(100, ratio * 100))
}

function VramLine(): React.JSX.Element {
  const gpu = useSnapshotStore((s) => s.snapshot?.gpu ?? null)
  const waiting = useSnapshotStore((s) => s.snapshot === null)
  const headroom = useSettingsStore((s) => s.settings?.vramHeadroomMiB ?? null)
  const device = gpu?.available ? gpu.devices[0] : undefined
  const total = device?.memoryTotalMiB ?? null
  const used = device?.memoryUsedMiB ?? null
  const free = device?.memoryFreeMiB ?? null
  if (total === null || used === null || free === null || total <= 0) {
    const why = waiting ? 'waiting for the first reading.' : `no GPU data: ${gpuReasonSummary(gpu?.reason ?? 'GPU telemetry is off')}.`
    return (
      <p className="pop-line" data-testid="pop-vram">
        <span className="pop-key">VRAM</span> <span className="pop-muted">{why.charAt(0).toUpperCase() + why.slice(1)}</span>
      </p>
    )
  }
  const tight = headroom !== null && free < headroom
  const label = `${formatMiB(free)} free of ${formatMiB(total)}${headroom !== null ? `, keep ${formatMiB(headroom)} free (the mark)` : ''}`
  return (
    <div className="pop-line pop-vram" data-testid="pop-vram">
      <span className="pop-key">VRAM</span>
      <span className={tight ? 'pop-value tight' : 'pop-value'}>
        {formatMiB(free)} free{tight ? ' (under the headroom)' : ''}
      </span>
      <span className="pop-bar" role="img" aria-label={label}>
        <span className={tight ? 'pop-bar-used tight' : 'pop-bar-used'} style={{ width: `${percent(used / total)}%` }} />
        {headroom !== null && <span className="pop-bar-mark" style={{ left: `${percent((total - headroom) / total)}%` }} />}
      </span>
    </div>
  )
}

function CpuLine(): React.JSX.Element {
  const system = useSnapshotStore((s) => s.snapshot?.cpu?.systemPct ?? null)
  const server = useSnapshotStore((s) => s.snapshot?.cpu?.server?.cpuPct ?? null)
  const pct = (v: number | null): string => (v === null ? 'no reading yet' : `${Math.round(v)}%`)
  return (
    <p className="pop-line" data-testid="pop-cpu">
      <span className="pop-key">CPU</span> <span className="pop-value">{pct(system)}</span>
      {server !== null && <span className="pop-muted"> · llama-server {pct(server)}</span>}
    </p>
  )
}

function HeaviestLine(): React.JSX.Element {
  const heaviest = useSnapshotStore((s) => heaviestOtherApp(s.snapshot?.cpu))
  return (
    <p className="pop-line" data-testid="heaviest-app">
      <span className="pop-key">Heaviest app</span> <span className="pop-value pop-ellipsis">{heaviest ?? 'none'}</span>
    </p>
  )
}

/** The GPU energy of the profile's recent requests per 1,000 generated tokens, where the GPU measured it (NVML, nvidia-smi). */
function EnergyLine(): React.JSX.Element | null {
  const perThousand = useSnapshotStore((s) => (ready(s) ? (s.snapshot?.generation?.rolling?.joulesPer1000Tokens ?? null) : null))
  if (perThousand === null) return null
  return (
    <p className="pop-line" data-testid="pop-energy" title="GPU energy over this profile's recent requests">
      <span className="pop-key">GPU energy</span> <span className="pop-value">{formatPerThousandTokens(perThousand)}</span>
    </p>
  )
}

/** The power source, on a laptop only (a desktop reads unknown and shows no line). */
function PowerLine(): React.JSX.Element | null {
  const text = useSnapshotStore((s) => powerText(s.snapshot?.power))
  if (text === null) return null
  return (
    <p className="pop-line" data-testid="pop-power">
      <span className="pop-key">Power</span> <span className="pop-value">{text}</span>
    </p>
  )
}

export function PopoverFigures(): React.JSX.Element {
  return (
    <section className="pop-figures" aria-label="Figures">
      <Rate />
      <VramLine />
      <CpuLine />
      <HeaviestLine />
      <TodayLine />
      <EnergyLine />
      <PowerLine />
    </section>
  )
}
