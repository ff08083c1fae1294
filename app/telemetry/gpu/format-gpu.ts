import type { GpuDevice, GpuSnapshot } from '../../contract/telemetry'
import type { GpuInventory } from './inventory'

const n = (v: number | null, unit = '', digits = 0): string => (v === null ? '?' : `${v.toFixed(digits)}${unit}`)

/** One line per GPU of the inventory, for `llama-tray gpu`. */
export function formatInventory(inv: GpuInventory): string[] {
  const header = `driver ${inv.driverVersion ?? '?'} · CUDA ${inv.cudaVersion ?? '?'}`
  if (inv.gpus.length === 0) return [`${header} · no GPU listed`]
  return inv.gpus.map(
    (g) =>
      `GPU ${g.index}: ${g.productName ?? 'unknown GPU'} · ${n(g.memoryTotalMiB, ' MiB')}${g.driverModel ? ` · ${g.driverModel}` : ''} ` +
      `· ${header}`,
  )
}

export function formatDevice(d: GpuDevice): string {
  const reasons =
    d.throttleReasons === null ? '' : ` · ${d.throttleReasons.length === 0 ? 'no clock limits' : d.throttleReasons.join(', ')}`
  const reserved = d.memoryReservedMiB === null ? '' : `, reserved ${d.memoryReservedMiB}`
  return (
    `GPU ${d.index}  VRAM ${n(d.memoryUsedMiB)}/${n(d.memoryTotalMiB)} MiB (free ${n(d.memoryFreeMiB)}${reserved}) · ` +
    `${n(d.temperatureC, '°C')} ` +
    `· ${n(d.utilizationPct, '%')} · ${n(d.powerW, '', 1)}/${n(d.powerLimitW, ' W')} · SM ${n(d.smClockMHz, ' MHz')} · ` +
    `${d.pstate ?? 'P?'}${reasons}`
  )
}

/** The sample lines, or why there are none. */
export function formatGpuSnapshot(s: GpuSnapshot): string[] {
  if (!s.available) return [s.reason ?? 'No GPU data (no reason given)']
  const tag = `[${s.backend ?? '?'}${s.stale ? `, stale: ${s.reason ?? ''}` : ''}]`
  return s.devices.map((d) => `${formatDevice(d)}  ${tag}`)
}
