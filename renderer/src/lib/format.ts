/** Small display helpers (pure, tested). */

export function formatRate(tokensPerSecond: number | null | undefined): string {
  if (tokensPerSecond === null || tokensPerSecond === undefined || !Number.isFinite(tokensPerSecond)) return '–'
  return tokensPerSecond >= 100 ? tokensPerSecond.toFixed(0) : tokensPerSecond.toFixed(1)
}

export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '–'
  return `${(ratio * 100).toFixed(0)}%`
}

export function formatMiB(mib: number | null | undefined): string {
  if (mib === null || mib === undefined || !Number.isFinite(mib)) return '–'
  return mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${Math.round(mib)} MiB`
}

/** 75 s → "1:15"; 3700 s → "1:01:40". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** The last path segment, for long model paths in narrow windows (either separator). */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/)
  return parts[parts.length - 1] || path
}

export { formatEnergy, formatPerThousandTokens } from '../../../app/contract/energy'

/** A chart axis label that fits its 46 px gutter: 950, 12.5, 1.2k, 25k, 3.4M (uPlot cuts a longer one). */
export function formatAxisNumber(value: number): string {
  const abs = Math.abs(value)
  // Where rounding would give 1000k, say 1M instead (and 1k for 999.96).
  if (abs >= 999_500) return `${+(value / 1e6).toFixed(abs >= 1e7 ? 0 : 1)}M`
  if (abs >= 999.95) return `${+(value / 1e3).toFixed(abs >= 1e4 ? 0 : 1)}k`
  return String(+value.toFixed(1))
}
