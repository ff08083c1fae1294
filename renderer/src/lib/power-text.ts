import type { PowerStatus } from '../../../app/contract/power'

/** The power source in a few words ("Battery, 79%", "AC, battery 80% charging"); null when unknown (a desktop). */
export function powerText(power: PowerStatus | null | undefined): string | null {
  if (!power || power.source === 'unknown') return null
  const charge = power.batteryPercent === null ? null : `${Math.round(power.batteryPercent)}%`
  const saver = power.saver ? ', battery saver on' : ''
  if (power.source === 'battery') return `Battery${charge ? `, ${charge}` : ''}${saver}`
  const battery = charge ? `, battery ${charge}${power.charging ? ' charging' : ''}` : ''
  return `AC${battery}${saver}`
}
