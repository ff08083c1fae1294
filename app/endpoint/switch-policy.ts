/** What a switch ended with, as the core's server:start reports it. */
export type SwitchOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string }

export interface SwitchPolicyEvents {
  /** The switch to `target` ended (and no later request wanted another profile meanwhile). */
  readonly done: (target: string, outcome: SwitchOutcome) => void
  /** A later request wanted `by` before `target` was served: the last one wins. */
  readonly superseded: (target: string, by: string) => void
}

/**
 * Switch on request, one at a time, the last request winning: a request for
 * the profile already being switched to joins that switch; a request for
 * another one supersedes it and runs once the current switch ends (the
 * supervisor cannot interrupt a start). The switch itself is the core's.
 */
export class SwitchPolicy {
  private wanted: string | null = null
  private running = false

  constructor(
    private readonly switchTo: (profileId: string) => Promise<SwitchOutcome>,
    private readonly events: SwitchPolicyEvents,
  ) {}

  /** The profile the endpoint is switching to, or null. */
  get target(): string | null {
    return this.wanted
  }

  request(target: string): void {
    if (this.wanted === target) return
    const previous = this.wanted
    this.wanted = target
    if (previous !== null) this.events.superseded(previous, target)
    if (!this.running) void this.loop()
  }

  private async loop(): Promise<void> {
    this.running = true
    try {
      while (this.wanted !== null) {
        const target = this.wanted
        let outcome: SwitchOutcome
        try {
          outcome = await this.switchTo(target)
        } catch (err) {
          outcome = { ok: false, error: (err as Error).message }
        }
        if (this.wanted !== target) continue // superseded while it ran: its requests already have their answer
        this.wanted = null
        this.events.done(target, outcome)
      }
    } finally {
      this.running = false
    }
  }
}
