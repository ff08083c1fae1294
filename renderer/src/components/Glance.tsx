import { useState } from 'react'
import { formatEnergy, formatMiB, formatPercent, formatRate } from '../lib/format'
import { gpuReasonSummary } from '../lib/gpu-reason'
import { powerText } from '../lib/power-text'
import { useSettingsStore } from '../stores/settings-store'
import { useSnapshotStore } from '../stores/snapshot-store'

// The Running view's tiles: one figure each, read at a glance. Every selector
// returns a primitive, so a 1 Hz snapshot re-renders only the tiles it changed.

function LastRequest(): React.JSX.Element {
  const prompt = useSnapshotStore((s) => s.snapshot?.generation?.last?.promptTokensPerSecond ?? null)
  const gen = useSnapshotStore((s) => s.snapshot?.generation?.last?.predictedTokensPerSecond ?? null)
  const acceptance = useSnapshotStore((s) => s.snapshot?.generation?.last?.draftAcceptance ?? null)
  const usualAcceptance = useSnapshotStore((s) => s.snapshot?.generation?.rolling?.draftAcceptance ?? null)
  const energyJ = useSnapshotStore((s) => s.snapshot?.generation?.last?.energyJ ?? null)
  const perThousand = useSnapshotStore((s) => s.snapshot?.generation?.rolling?.joulesPer1000Tokens ?? null)
  return (
    <section className="tile" aria-labelledby="tile-last">
      <h2 id="tile-last">Last request</h2>
      <dl className="tile-figures">
        <div>
          <dt>Prompt</dt>
          <dd data-testid="last-prompt-rate">{formatRate(prompt)} tok/s</dd>
        </div>
        <div>
          <dt>Generation</dt>
          <dd data-testid="last-gen-rate">{formatRate(gen)} tok/s</dd>
        </div>
        <div>
          <dt>Draft accepted</dt>
          <dd data-testid="draft-acceptance" title={usualAcceptance !== null ? `usual ${formatPercent(usualAcceptance)}` : undefined}>
            {formatPercent(acceptance)}
          </dd>
        </div>
        {energyJ !== null && (
          <div>
            <dt>GPU energy</dt>
            <dd data-testid="last-energy">{formatEnergy(energyJ)}</dd>
          </div>
        )}
        {perThousand !== null && (
          <div>
            <dt>Per 1,000 tokens</dt>
            <dd data-testid="energy-per-thousand" title="GPU energy per 1,000 generated tokens over this profile's recent requests">
              {formatEnergy(perThousand)}
            </dd>
          </div>
        )}
      </dl>
    </section>
  )
}

/** "No GPU data: no NVIDIA driver found", the telemetry's own words behind a toggle. */
export function GpuEmpty(): React.JSX.Element | null {
  const raw = useSnapshotStore((s) =>
    s.snapshot?.gpu && !s.snapshot.gpu.available
      ? (s.snapshot.gpu.reason ?? '')
      : s.snapshot && !s.snapshot.gpu
        ? 'GPU telemetry is off'
        : null,
  )
  const [open, setOpen] = useState(false)
  if (raw === null) return null
  const summary = gpuReasonSummary(raw)
  return (
    <div className="gpu-empty" data-testid="gpu-note">
      <span>No GPU data: {summary}.</span>{' '}
      {raw !== '' && raw !== summary && (
        <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="gpu-note-details">
          {open ? 'Hide details' : 'Details'}
        </button>
      )}
      {open && <code className="gpu-raw">{raw}</code>}
    </div>
  )
}

function VramTile(): React.JSX.Element {
  const total = useSnapshotStore((s) => (s.snapshot?.gpu?.available ? (s.snapshot.gpu.devices[0]?.memoryTotalMiB ?? null) : null))
  const used = useSnapshotStore((s) => (s.snapshot?.gpu?.available ? (s.snapshot.gpu.devices[0]?.memoryUsedMiB ?? null) : null))
  const free = useSnapshotStore((s) => (s.snapshot?.gpu?.available ? (s.snapshot.gpu.devices[0]?.memoryFreeMiB ?? null) : null))
  const headroom = useSettingsStore((s) => s.settings?.vramHeadroomMiB ?? null)
  const waiting = useSnapshotStore((s) => s.snapshot === null)
  const known = total !== null && used !== null && free !== null && total > 0
  const tight = known && headroom !== null && free < headroom
  return (
    <section className="tile" aria-labelledby="tile-vram" data-testid="glance-vram">
      <h2 id="tile-vram">VRAM</h2>
      {known ? (
        <>
          <p className="tile-value">
            <strong>{formatMiB(used)}</strong> used · <strong className={tight ? 'tight' : undefined}>{formatMiB(free)}</strong> free
          </p>
          <div
            className="vram-bar"
            role="img"
            aria-label={
              `${formatMiB(used)} of ${formatMiB(total)} used, ${formatMiB(free)} free` +
              `${headroom !== null ? `, headroom ${formatMiB(headroom)}` : ''}`
            }
          >
            <span className={tight ? 'vram-used tight' : 'vram-used'} style={{ width: `${Math.min(100, (used / total) * 100)}%` }} />
            {headroom !== null && (
              <span className="vram-headroom" style={{ left: `${Math.max(0, Math.min(100, ((total - headroom) / total) * 100))}%` }} />
            )}
          </div>
          <p className="note">
            {headroom !== null ? `of ${formatMiB(total)}; keep ${formatMiB(headroom)} free (the mark)` : `of ${formatMiB(total)}`}
          </p>
        </>
      ) : waiting ? (
        <p className="note">Waiting for the first reading (GPU figures are read while a server runs or this window is open).</p>
      ) : (
        <GpuEmpty />
      )}
    </section>
  )
}

/** Below this share of the machine another app is not worth a line. */
const HEAVY_PCT = 5

function CpuTile(): React.JSX.Element {
  const system = useSnapshotStore((s) => s.snapshot?.cpu?.systemPct ?? null)
  const server = useSnapshotStore((s) => s.snapshot?.cpu?.server?.cpuPct ?? null)
  const serverPid = useSnapshotStore((s) => s.snapshot?.cpu?.server?.pid ?? null)
  // The heaviest other app: a named heavy app first (the list the user keeps), else the busiest process.
  const heaviest = useSnapshotStore((s) => {
    const cpu = s.snapshot?.cpu
    if (!cpu) return null
    const apps = cpu.heavyApps.filter((a) => !a.pids.includes(serverPid ?? -1))
    const app = [...apps].sort((a, b) => (b.cpuPct ?? 0) - (a.cpuPct ?? 0))[0]
    // Shown only when it is heavy enough to matter: "Another LLM server 0%" says nothing.
    if (app && app.cpuPct !== null && Math.round(app.cpuPct) >= HEAVY_PCT) return `${app.name} ${Math.round(app.cpuPct)}%`
    const top = cpu.topProcesses.find((p) => p.pid !== serverPid)
    return top && Math.round(top.cpuPct) >= HEAVY_PCT ? `${top.name} ${Math.round(top.cpuPct)}%` : null
  })
  const pct = (v: number | null): string => (v === null ? '—' : `${Math.round(v)}%`)
  return (
    <section className="tile" aria-labelledby="tile-cpu" data-testid="glance-cpu">
      <h2 id="tile-cpu">CPU</h2>
      <dl className="tile-figures">
        <div>
          <dt>System</dt>
          <dd>{pct(system)}</dd>
        </div>
        <div>
          <dt>llama-server</dt>
          <dd>{pct(server)}</dd>
        </div>
        {heaviest !== null && (
          <div>
            <dt>Heaviest other app</dt>
            <dd className="quiet" data-testid="heaviest-app">
              {heaviest}
            </dd>
          </div>
        )}
      </dl>
    </section>
  )
}

function GpuTile(): React.JSX.Element | null {
  const available = useSnapshotStore((s) => s.snapshot?.gpu?.available === true)
  const temp = useSnapshotStore((s) => s.snapshot?.gpu?.devices[0]?.temperatureC ?? null)
  const power = useSnapshotStore((s) => s.snapshot?.gpu?.devices[0]?.powerW ?? null)
  const name = useSnapshotStore((s) => s.snapshot?.gpu?.devices[0]?.name ?? null)
  const warnAt = useSettingsStore((s) => s.settings?.gpuTemperatureWarnC ?? null)
  if (!available) return null
  return (
    <section className="tile" aria-labelledby="tile-gpu" data-testid="glance-gpu">
      <h2 id="tile-gpu">GPU</h2>
      <dl className="tile-figures">
        <div>
          <dt>Temperature</dt>
          <dd className={temp !== null && warnAt !== null && temp >= warnAt ? 'tight' : undefined}>
            {temp === null ? '—' : `${Math.round(temp)} °C`}
          </dd>
        </div>
        <div>
          <dt>Power</dt>
          <dd>{power === null ? '—' : `${Math.round(power)} W`}</dd>
        </div>
      </dl>
      {name && <p className="note">{name}</p>}
    </section>
  )
}

/** The power source on a laptop (none on a desktop, whose source reads unknown). */
function PowerTile(): React.JSX.Element | null {
  const text = useSnapshotStore((s) => powerText(s.snapshot?.power))
  if (text === null) return null
  return (
    <section className="tile" aria-labelledby="tile-power" data-testid="glance-power">
      <h2 id="tile-power">Power source</h2>
      <p>{text}</p>
    </section>
  )
}

export function Glance(): React.JSX.Element {
  return (
    <div className="glance" data-testid="glance">
      <VramTile />
      <CpuTile />
      <GpuTile />
      <PowerTile />
      <LastRequest />
    </div>
  )
}
