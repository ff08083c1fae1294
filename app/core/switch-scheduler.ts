import type { Result } from '../contract/commands'
import { isServing, type ServerStatus } from '../contract/server-state'
import type { GenerationSnapshot } from '../contract/generation'
import type { PendingSwitch } from '../contract/snapshot'
import { AdmissionError, type Lease } from '../endpoint/backend'
import { estimateSwitch, pendingSwitchSentence } from './switch-estimate'
import { decideSwitch, type HeldRequest, type PolicyDecision } from './switch-policy'
import { failed, failedFrom } from '../lib/failed'

export interface SwitchSchedulerDeps {
  status(): ServerStatus
  onState(listener: (status: ServerStatus) => void): () => void
  /** Why `profileId` cannot start (one sentence), checked before anything is stopped; null when it can. */
  check(profileId: string): Promise<string | null>
  /** Stops the running server and starts `profileId` (the core's switch). */
  load(profileId: string): Promise<Result<ServerStatus>>
  settings(): { readonly switchMinResidencyS: number; readonly switchDrainS: number }
  /** The running server's live generation figures (slots, rates): what a pending switch's estimate is made from. */
  generation?: () => GenerationSnapshot | null
  /** Called whenever what `pending()` says may have changed. */
  onChange?: () => void
  now?: () => number
}

interface Waiter extends HeldRequest {
  /** A user's choice (tray, dashboard, `profiles use`): a later choice replaces it while it is held. */
  readonly choice: boolean
  readonly resolve: (lease: Lease) => void
  readonly reject: (err: Error) => void
  readonly detach: () => void
}

interface Running {
  readonly profileId: string
  readonly cut: AbortController
}

/** A server that does not answer now and will not on its own (a start is needed). */
const isDown = (s: ServerStatus): boolean =>
  s.profileId === null || s.state === 'stopped' || s.state === 'errored' || s.state === 'crashloop'

/**
 * The one place that decides when the server switches profile (the endpoint's
 * requests, the tray, the dashboard and the CLI all come here): requests wait
 * in groups by profile, a running profile keeps its minimum residency and its
 * requests are drained before a switch, and a profile that cannot start is
 * refused before the running one is stopped. The rules are switch-policy.ts.
 */
export class SwitchScheduler {
  private nextId = 1
  private readonly checking = new Map<string, Promise<string | null>>()
  private readonly held: Waiter[] = []
  private readonly running = new Set<Running>()
  private decided: { target: string; at: number } | null = null
  private forced = false
  private loading: string | null = null
  private loaded: { profileId: string; at: number } | null = null
  private latestChoice: string | null = null
  private timer: NodeJS.Timeout | null = null
  private readonly offState: () => void
  private readonly now: () => number
  private disposed = false

  constructor(private readonly deps: SwitchSchedulerDeps) {
    this.now = deps.now ?? (() => performance.now())
    this.offState = deps.onState((s) => this.onState(s))
    this.onState(deps.status())
  }

  /**
   * Waits for `profileId`'s turn on a ready server, switching to it when needed.
   * The lease's signal is aborted (its reason an Error naming the switch) when a
   * switch cuts the request; release it when the request ends.
   */
  acquire(profileId: string, signal: AbortSignal): Promise<Lease> {
    return this.hold(profileId, signal, false)
  }

  private async hold(profileId: string, signal: AbortSignal, choice: boolean): Promise<Lease> {
    if (this.disposed)
      throw new AdmissionError('Llama Tray is stopping, so no request is served now; send it again once Llama Tray runs.', 'shutting_down')
    const current = this.currentProfile()
    if (current !== null && current !== profileId && this.loading !== profileId) {
      const refusal = await this.checkOnce(profileId)
      if (refusal !== null) throw new AdmissionError(refusal, 'profile_refused')
    }
    signal.throwIfAborted()
    return new Promise<Lease>((resolve, reject) => {
      const onAbort = (): void => {
        this.drop(waiter)
        reject(signal.reason instanceof Error ? signal.reason : new Error('the request was cancelled'))
      }
      const waiter: Waiter = {
        id: this.nextId++,
        profileId,
        choice,
        arrivedAt: this.now(),
        resolve,
        reject,
        detach: () => signal.removeEventListener('abort', onAbort),
      }
      signal.addEventListener('abort', onAbort, { once: true })
      if (choice) this.replaceChoices(profileId)
      this.held.push(waiter)
      this.evaluate()
    })
  }

  /**
   * A user's start or switch (tray, dashboard, CLI): a request like any other, done once its profile serves.
   * The last choice wins: a choice still held when another comes is withdrawn, with a sentence naming the later one.
   */
  async request(profileId: string): Promise<Result<ServerStatus>> {
    this.latestChoice = profileId
    try {
      const lease = await this.hold(profileId, new AbortController().signal, true)
      lease.release()
      return { ok: true, value: this.deps.status() }
    } catch (err) {
      // Withdrawn by the user's own later choice of the running profile: nothing failed, the server runs as chosen.
      if (err instanceof AdmissionError && err.code === 'switch_withdrawn') return { ok: true, value: this.deps.status() }
      return failedFrom(err)
    }
  }

  /** The profile of the user's latest choice (`request`), so a refusal of an older choice is not shown over it; null before any. */
  lastChoice(): string | null {
    return this.latestChoice
  }

  /** "Switch now": the waiting switch happens at once, its running requests cut with an error naming it. */
  switchNow(): Result<string> {
    const pending = this.pending()
    if (pending === null)
      return failed('server', 'No switch is waiting, so there is nothing to switch now; choose a profile to switch to first.')
    this.forced = true
    this.evaluate()
    return { ok: true, value: pending.profileId }
  }

  /** The profile a decided (or loading) switch goes to; null when none is decided. */
  switchingTo(): string | null {
    return this.loading ?? this.decided?.target ?? null
  }

  /** The switch waiting for running requests or for the running profile's residency, for the snapshot; null when none. */
  pending(): PendingSwitch | null {
    const current = this.currentProfile()
    const target = this.decided?.target ?? this.held.find((h) => h.profileId !== current)?.profileId ?? null
    if (target === null || current === null || this.loading !== null) return null
    const s = this.deps.settings()
    const now = this.now()
    const runningRequests = this.inFlight(current)
    const residencyEnd = (this.loaded?.at ?? now) + s.switchMinResidencyS * 1000
    const drainEnd = (this.decided?.at ?? Math.max(now, residencyEnd)) + s.switchDrainS * 1000
    const withinS = Math.max(0, Math.ceil((drainEnd - now) / 1000))
    const generation = this.deps.generation?.() ?? null
    const residencyLeftS = this.decided ? 0 : Math.max(0, (residencyEnd - now) / 1000)
    const estimate = estimateSwitch({
      runningRequests,
      slots: generation?.slots ?? [],
      medianTokensPerSecond: generation?.rolling?.medianTokensPerSecond ?? null,
      residencyLeftS,
      drainLeftS: (drainEnd - now) / 1000 - residencyLeftS,
    })
    const sentence = pendingSwitchSentence(target, current, estimate, runningRequests)
    const { estimateS, when } = estimate
    return {
      profileId: target,
      fromProfileId: current,
      runningRequests,
      heldRequests: this.held.length,
      withinS,
      estimateS,
      when,
      sentence,
    }
  }

  dispose(): void {
    this.disposed = true
    this.offState()
    this.clearTimer()
    for (const w of this.held.splice(0)) {
      w.detach()
      w.reject(
        new AdmissionError('Llama Tray is stopping, so this request was not served; send it again once Llama Tray runs.', 'shutting_down'),
      )
    }
  }

  /** The profile whose server runs or is on its way by itself (a start, a watchdog restart, a backoff); null when none. */
  private currentProfile(): string | null {
    const s = this.deps.status()
    return isDown(s) ? null : s.profileId
  }

  private inFlight(profileId: string): number {
    let n = 0
    for (const r of this.running) if (r.profileId === profileId) n++
    return n
  }

  private checkOnce(profileId: string): Promise<string | null> {
    let check = this.checking.get(profileId)
    if (!check) {
      check = this.deps.check(profileId).finally(() => this.checking.delete(profileId))
      this.checking.set(profileId, check)
    }
    return check
  }

  /**
   * Withdraws the held choices of other profiles when a new one comes for `profileId` (the last choice wins); the same
   * choice made twice (the tray, then the dashboard) waits as one group, and requests from clients always stay.
   * A choice of the running profile ("Keep", or a click on it) withdraws the waiting switch: its clicks end without a
   * failure (request()). A choice of a third profile replaces it: its clicks hear which.
   */
  private replaceChoices(profileId: string): void {
    const keeps = profileId === this.currentProfile()
    for (const w of this.held.filter((h) => h.choice && h.profileId !== profileId)) {
      this.held.splice(this.held.indexOf(w), 1)
      w.detach()
      w.reject(
        keeps
          ? new AdmissionError(`The switch to profile "${w.profileId}" was withdrawn: "${profileId}" keeps running.`, 'switch_withdrawn')
          : new AdmissionError(
              `The switch to profile "${w.profileId}" was replaced by a later choice of "${profileId}"; choose it again to switch to it.`,
              'switch_replaced',
            ),
      )
    }
  }

  private drop(waiter: Waiter): void {
    const i = this.held.indexOf(waiter)
    if (i >= 0) this.held.splice(i, 1)
    waiter.detach()
    this.evaluate()
  }

  private onState(s: ServerStatus): void {
    if (s.state === 'ready' && s.profileId !== null && this.loaded?.profileId !== s.profileId)
      this.loaded = { profileId: s.profileId, at: this.now() }
    if (isDown(s) && this.loading === null) this.loaded = null
    this.evaluate()
  }

  private evaluate(): void {
    if (this.disposed || this.loading !== null) return
    const s = this.deps.status()
    const running = this.currentProfile()
    const settings = this.deps.settings()
    const decision = decideSwitch({
      now: this.now(),
      running,
      ready: running !== null && isServing(s),
      loadedAt: running !== null && this.loaded?.profileId === running ? this.loaded.at : null,
      inFlight: running === null ? 0 : this.inFlight(running),
      held: this.held,
      decided: this.decided,
      forced: this.forced,
      minResidencyMs: settings.switchMinResidencyS * 1000,
      drainMs: settings.switchDrainS * 1000,
    })
    this.apply(decision, running)
    this.deps.onChange?.()
  }

  private apply(decision: PolicyDecision, running: string | null): void {
    for (const id of decision.admit) {
      const waiter = this.held.find((h) => h.id === id)
      if (waiter) this.admit(waiter)
    }
    if (decision.switchTo === null) {
      // No switch (any more): a "Switch now" for one nobody waits for is void.
      this.decided = null
      this.forced = false
    } else if (this.decided?.target !== decision.switchTo) this.decided = { target: decision.switchTo, at: this.decided?.at ?? this.now() }
    if (decision.cutInFlight && running !== null && this.decided) this.cut(running, this.decided.target)
    this.clearTimer()
    if (decision.startNow && decision.switchTo !== null) void this.load(decision.switchTo)
    else if (decision.wakeAt !== null) this.timer = setTimeout(() => this.evaluate(), Math.max(0, decision.wakeAt - this.now()) + 1)
  }

  private admit(waiter: Waiter): void {
    this.held.splice(this.held.indexOf(waiter), 1)
    waiter.detach()
    const entry: Running = { profileId: waiter.profileId, cut: new AbortController() }
    this.running.add(entry)
    let released = false
    waiter.resolve({
      signal: entry.cut.signal,
      release: () => {
        if (released) return
        released = true
        this.running.delete(entry)
        this.evaluate()
      },
    })
  }

  private cut(from: string, to: string): void {
    const why = this.forced
      ? `The server was switched from profile "${from}" to "${to}" with "Switch now" before this answer finished; send the request again.`
      : `The server switched from profile "${from}" to "${to}" after this answer ran past the switch drain limit of ` +
        `${this.deps.settings().switchDrainS} ` +
        `s; send it again, or raise the setting "switchDrainS".`
    for (const r of this.running) if (r.profileId === from && !r.cut.signal.aborted) r.cut.abort(new AdmissionError(why, 'switch_cut'))
  }

  private async load(target: string): Promise<void> {
    this.loading = target
    this.deps.onChange?.()
    let result: Result<ServerStatus>
    try {
      result = await this.deps.load(target)
    } catch (err) {
      result = failedFrom(err)
    }
    this.loading = null
    this.decided = null
    this.forced = false
    if (!result.ok) {
      const said =
        `Profile "${target}" failed to start: ${result.error.sentence.replace(/\.$/, '')}; ` +
        'fix the profile, or send the request for another one.'
      // A user's click hears the start's own sentence; an API client, the request-shaped one.
      const error = new AdmissionError(said, 'profile_failed', result.error)
      for (const w of this.held.filter((h) => h.profileId === target)) {
        this.held.splice(this.held.indexOf(w), 1)
        w.detach()
        w.reject(error)
      }
    }
    this.onState(this.deps.status())
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }
}
