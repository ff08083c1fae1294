import { EventEmitter } from 'node:events'
import type { PowerStatus } from '../app/contract/power'
import type { PowerEvents, PowerSourceReader } from '../app/platform/power-source'

/** What the app uses of Electron's powerMonitor (available after `ready`). */
export interface PowerMonitorLike extends Pick<EventEmitter, 'on' | 'off'> {
  isOnBatteryPower(): boolean
}

/**
 * Power events from Electron's powerMonitor: `on-ac` / `on-battery` tell the change (no polling in the app), and
 * `isOnBatteryPower()` the source now (no event fires at start). The charge and battery saver come from the
 * platform's reader (GetSystemPowerStatus on Windows), since powerMonitor has no battery level.
 */
export class ElectronPower implements PowerEvents {
  constructor(
    private readonly monitor: PowerMonitorLike,
    private readonly reader: PowerSourceReader,
  ) {}

  current(): PowerStatus {
    return { ...this.reader.read(), source: this.monitor.isOnBatteryPower() ? 'battery' : 'ac' }
  }

  onResume(listener: () => void): () => void {
    this.monitor.on('resume', listener)
    return () => this.monitor.off('resume', listener)
  }

  onSuspend(listener: () => void): () => void {
    this.monitor.on('suspend', listener)
    return () => this.monitor.off('suspend', listener)
  }

  onChange(listener: (status: PowerStatus) => void): () => void {
    const told = (): void => listener(this.current())
    this.monitor.on('on-ac', told)
    this.monitor.on('on-battery', told)
    return () => {
      this.monitor.off('on-ac', told)
      this.monitor.off('on-battery', told)
    }
  }
}
