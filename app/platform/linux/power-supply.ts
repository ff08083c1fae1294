import { UNKNOWN_POWER, type PowerStatus } from '../../contract/power'
import type { PowerSourceReader } from '../power-source'
import { Sysfs } from '../sysfs'

interface Supply {
  readonly type: string | null
  readonly online: string | null
  readonly capacity: string | null
  readonly status: string | null
}

/** The power source from the supplies under class/power_supply: a charger (Mains, USB) online is AC. */
export function powerFromSupplies(supplies: readonly Supply[]): PowerStatus {
  const chargers = supplies.filter((s) => s.type === 'Mains' || s.type?.startsWith('USB'))
  const batteries = supplies.filter((s) => s.type === 'Battery')
  if (chargers.length === 0 && batteries.length === 0) return UNKNOWN_POWER
  const battery = batteries[0] ?? null
  const capacity = battery?.capacity == null ? Number.NaN : Number(battery.capacity)
  const batteryPercent = Number.isFinite(capacity) ? Math.max(0, Math.min(100, capacity)) : null
  const charging = battery?.status == null ? null : battery.status === 'Charging'
  return { source: sourceOf(chargers, battery), batteryPercent, charging, saver: null }
}

function sourceOf(chargers: readonly Supply[], battery: Supply | null): PowerStatus['source'] {
  if (chargers.some((s) => s.online === '1')) return 'ac'
  if (chargers.length > 0) return battery ? 'battery' : 'unknown'
  // A battery with no charger listed: its status says it.
  if (battery?.status === 'Discharging') return 'battery'
  if (battery?.status === 'Charging' || battery?.status === 'Full') return 'ac'
  return 'unknown'
}

/** Linux: <sysfs>/class/power_supply (the charger's `online`, the battery's `capacity` and `status`). */
export class LinuxPowerSupply implements PowerSourceReader {
  constructor(private readonly sysfs = new Sysfs()) {}

  read(): PowerStatus {
    const base = ['class', 'power_supply']
    return powerFromSupplies(
      this.sysfs.list(...base).map((name) => ({
        type: this.sysfs.read(...base, name, 'type'),
        online: this.sysfs.read(...base, name, 'online'),
        capacity: this.sysfs.read(...base, name, 'capacity'),
        status: this.sysfs.read(...base, name, 'status'),
      })),
    )
  }
}
