import type { PowerSourceKind } from '../contract/power'
import type { PowerEvents } from '../platform/power-source'
import { ProfileParking, type ParkingDeps } from './profile-parking'

/** Power-source changes settle this long before anything is done (a charger's plug wobbles; G-Helper waits 2 s too). */
export const POWER_DEBOUNCE_MS = 2000

export interface BatteryPolicyDeps extends ParkingDeps {
  readonly power: PowerEvents
  /** The onBattery setting: keep, stop, or a profile id. */
  onBattery(): string
  /** Calls `listener` when the settings change; returns its unsubscribe. */
  onSettingsChange(listener: () => void): () => void
  /** Says what was done, once (the app's notification and log, the CLI's stderr). */
  say(sentence: string): void
  readonly debounceMs?: number
}

/**
 * The onBattery setting at work: unplugged, the server is kept, stopped, or switched to the battery profile; back on
 * AC the profile that ran before returns (unless the user chose another meanwhile). Only changes of source act, after
 * they settle: a start on battery runs what the user asked for.
 */
export class BatteryPolicy {
  /** The profile to bring back on AC. */
  private readonly parking: ProfileParking
  private offPower: (() => void) | null = null
  private readonly offSettings: () => void
  private timer: NodeJS.Timeout | null = null
  private source: PowerSourceKind
  private acting: Promise<void> = Promise.resolve()
  private disposed = false

  constructor(private readonly deps: BatteryPolicyDeps) {
    this.parking = new ProfileParking(deps)
    this.source = deps.power.current().source
    this.offSettings = deps.onSettingsChange(() => this.follow())
    this.follow()
  }

  /** Resolves once what the last settled change asked for is done (tests, and dispose). */
  settled(): Promise<void> {
    return this.acting
  }

  dispose(): void {
    this.disposed = true
    this.offSettings()
    this.offPower?.()
    this.offPower = null
    if (this.timer) clearTimeout(this.timer)
  }

  /** Listens to the power source only while the setting asks for something or a profile waits to come back. */
  private follow(): void {
    const wanted = this.deps.onBattery() !== 'keep' || this.parking.parked
    if (wanted && !this.offPower) {
      this.source = this.deps.power.current().source
      this.offPower = this.deps.power.onChange(() => this.onPower())
    } else if (!wanted && this.offPower) {
      this.offPower()
      this.offPower = null
    }
  }

  private onPower(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      const source = this.deps.power.current().source
      if (source === this.source || source === 'unknown') return
      this.source = source
      this.acting = this.acting.then(() => (source === 'battery' ? this.onBattery() : this.onAc())).catch(() => {})
    }, this.deps.debounceMs ?? POWER_DEBOUNCE_MS)
    this.timer.unref()
  }

  private async onBattery(): Promise<void> {
    const setting = this.deps.onBattery()
    if (this.disposed || setting === 'keep') return
    const done = await this.parking.park(setting === 'stop' ? null : setting)
    if (done.kind === 'stopped') this.deps.say(`On battery: stopped ${done.name} to save power; it starts again on AC.`)
    else if (done.kind === 'refused')
      this.deps.say(`On battery: could not switch to ${done.target} (${done.sentence.replace(/\.$/, '')}); ${done.name} keeps running.`)
    else if (done.kind === 'switched')
      this.deps.say(`On battery: switched from ${done.name} to ${done.target}; ${done.name} returns on AC.`)
  }

  private async onAc(): Promise<void> {
    if (this.disposed) {
      this.follow()
      return
    }
    const done = await this.parking.restore()
    this.follow()
    if (done.kind === 'back') this.deps.say(`On AC again: ${done.name} is back.`)
    else if (done.kind === 'failed') this.deps.say(`On AC again, but ${done.name} could not start: ${done.sentence}`)
  }
}
