import type { Result } from '../contract/commands'
import type { PowerSourceKind } from '../contract/power'
import { launchInEffect, type ServerStatus } from '../contract/server-state'
import type { PowerEvents } from '../platform/power-source'

/** Power-source changes settle this long before anything is done (a charger's plug wobbles; G-Helper waits 2 s too). */
export const POWER_DEBOUNCE_MS = 2000

export interface BatteryPolicyDeps {
  readonly power: PowerEvents
  /** The onBattery setting: keep, stop, or a profile id. */
  onBattery(): string
  /** Calls `listener` when the settings change; returns its unsubscribe. */
  onSettingsChange(listener: () => void): () => void
  status(): ServerStatus
  /** Whether this id is a stored profile (a pasted --cmd server has none to come back to). */
  isProfile(profileId: string): Promise<boolean>
  /** Switches to or starts a profile through the switch scheduler (a running request finishes first). */
  request(profileId: string): Promise<Result<ServerStatus>>
  /** Stops the server once its running requests have finished (at most the settings' drain time). */
  stopWhenIdle(): Promise<void>
  nameOf(profileId: string): Promise<string>
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
  /** The profile to bring back on AC, and what runs in its place (null: stopped). */
  private toRestore: { readonly profileId: string; readonly instead: string | null } | null = null
  private offPower: (() => void) | null = null
  private readonly offSettings: () => void
  private timer: NodeJS.Timeout | null = null
  private source: PowerSourceKind
  private acting: Promise<void> = Promise.resolve()
  private disposed = false

  constructor(private readonly deps: BatteryPolicyDeps) {
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
    const wanted = this.deps.onBattery() !== 'keep' || this.toRestore !== null
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
    const status = this.deps.status()
    const running = launchInEffect(status.state) ? status.profileId : null
    if (this.disposed || setting === 'keep' || running === null || running === setting) return
    if (!(await this.deps.isProfile(running))) return
    const name = await this.deps.nameOf(running)
    if (setting === 'stop') {
      this.toRestore = { profileId: running, instead: null }
      await this.deps.stopWhenIdle()
      this.deps.say(`On battery: stopped ${name} to save power; it starts again on AC.`)
      return
    }
    const result = await this.deps.request(setting)
    const target = await this.deps.nameOf(setting)
    if (!result.ok) {
      this.deps.say(`On battery: could not switch to ${target} (${result.error.sentence.replace(/\.$/, '')}); ${name} keeps running.`)
      return
    }
    this.toRestore = { profileId: running, instead: setting }
    this.deps.say(`On battery: switched from ${name} to ${target}; ${name} returns on AC.`)
  }

  private async onAc(): Promise<void> {
    const restore = this.toRestore
    this.toRestore = null
    this.follow()
    if (this.disposed || !restore) return
    const status = this.deps.status()
    const now = launchInEffect(status.state) ? status.profileId : null
    // The user chose something else on battery: that choice stands.
    if (now !== restore.instead) return
    const name = await this.deps.nameOf(restore.profileId)
    const result = await this.deps.request(restore.profileId)
    this.deps.say(result.ok ? `On AC again: ${name} is back.` : `On AC again, but ${name} could not start: ${result.error.sentence}`)
  }
}
