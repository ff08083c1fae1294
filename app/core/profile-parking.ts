import type { Result } from '../contract/commands'
import { launchInEffect, type ServerStatus } from '../contract/server-state'

/** What a policy that takes the running profile away for a while needs of the core (the onBattery and onGame settings). */
export interface ParkingDeps {
  status(): ServerStatus
  /** Whether this id is a stored profile (a pasted --cmd server has none to come back to). */
  isProfile(profileId: string): Promise<boolean>
  /** Switches to or starts a profile through the switch scheduler (a running request finishes first). */
  request(profileId: string): Promise<Result<ServerStatus>>
  /** Stops the server once its running requests have finished (at most the settings' drain time). */
  stopWhenIdle(): Promise<void>
  nameOf(profileId: string): Promise<string>
}

/** What park() did: nothing (no stored profile runs, or it is the one asked for), stopped it, switched, or failed to. */
export type ParkOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'stopped'; readonly name: string }
  | { readonly kind: 'switched'; readonly name: string; readonly target: string }
  | { readonly kind: 'refused'; readonly name: string; readonly target: string; readonly sentence: string }

/** What restore() did: nothing parked, the user chose another profile meanwhile (that choice stands), back, or failed. */
export type RestoreOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'superseded' }
  | { readonly kind: 'back'; readonly name: string }
  | { readonly kind: 'failed'; readonly name: string; readonly sentence: string }

/**
 * The running profile taken away (stopped, or replaced by another) and brought back later, unless the user chose
 * something else meanwhile: the shape the onBattery and onGame settings share. Both go through the switch
 * scheduler (request) or wait for running requests (stopWhenIdle): a running request always finishes first.
 */
export class ProfileParking {
  /** The profile to bring back, and what runs in its place (null: stopped). */
  private parkedAs: { readonly profileId: string; readonly instead: string | null } | null = null

  constructor(private readonly deps: ParkingDeps) {}

  get parked(): boolean {
    return this.parkedAs !== null
  }

  /** The stored profile that runs now (a launch in effect), else null. */
  running(): string | null {
    const status = this.deps.status()
    return launchInEffect(status.state) ? status.profileId : null
  }

  /** Stops the running profile (`instead` null) or switches it to `instead`, remembering it to come back. */
  async park(instead: string | null): Promise<ParkOutcome> {
    const running = this.running()
    if (running === null || running === instead || !(await this.deps.isProfile(running))) return { kind: 'none' }
    const name = await this.deps.nameOf(running)
    if (instead === null) {
      this.parkedAs = { profileId: running, instead: null }
      await this.deps.stopWhenIdle()
      return { kind: 'stopped', name }
    }
    const result = await this.deps.request(instead)
    const target = await this.deps.nameOf(instead)
    if (!result.ok) return { kind: 'refused', name, target, sentence: result.error.sentence }
    this.parkedAs = { profileId: running, instead }
    return { kind: 'switched', name, target }
  }

  /** Brings the parked profile back, unless what runs now is no longer what park() left (the user's later choice). */
  async restore(): Promise<RestoreOutcome> {
    const parked = this.parkedAs
    this.parkedAs = null
    if (!parked) return { kind: 'none' }
    if (this.running() !== parked.instead) return { kind: 'superseded' }
    const name = await this.deps.nameOf(parked.profileId)
    const result = await this.deps.request(parked.profileId)
    return result.ok ? { kind: 'back', name } : { kind: 'failed', name, sentence: result.error.sentence }
  }
}
