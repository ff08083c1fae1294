/**
 * When to serve, hold and switch: a pure function of what the scheduler knows
 * now (no clock, no I/O), so any event sequence can be replayed in a test.
 *
 * Rules: requests are grouped by profile; while a profile runs, the held
 * requests for it go first; a switch is decided for the profile of the oldest
 * held request for another profile, once the running one has stayed loaded
 * `minResidencyMs` (so A B A A C does not swap back and forth); after that
 * decision, new requests for the running profile wait in their group; the
 * switch waits for the running requests to finish, at most `drainMs`, then
 * cuts the rest. A decided switch nobody waits for any more (its requests
 * gave up, or a user's later choice replaced the click) is dropped.
 */

export interface HeldRequest {
  readonly id: number
  readonly profileId: string
  /** Clock-free: any monotonic number (ms), the same clock as `now`. */
  readonly arrivedAt: number
}

export interface PolicyInput {
  readonly now: number
  /** The profile whose server runs or is on its way (a start, a restart); null when none runs. */
  readonly running: string | null
  /** Whether that server answers requests now. */
  readonly ready: boolean
  /** When the running profile became ready; null before its first ready. */
  readonly loadedAt: number | null
  /** Requests the running server is serving now. */
  readonly inFlight: number
  /** Oldest first. */
  readonly held: readonly HeldRequest[]
  /** A switch already decided: its target and when. */
  readonly decided: { readonly target: string; readonly at: number } | null
  /** The user asked to switch now: no residency, no drain. */
  readonly forced: boolean
  readonly minResidencyMs: number
  readonly drainMs: number
}

export interface PolicyDecision {
  /** Held requests to serve now on the running server. */
  readonly admit: readonly number[]
  /** The switch decided (kept or new); null for none. */
  readonly switchTo: string | null
  /** Stop the running server and start `switchTo` now (nothing runs on it any more). */
  readonly startNow: boolean
  /** Cut the running requests: the drain limit passed, or the user said "switch now". */
  readonly cutInFlight: boolean
  /** When to decide again if nothing else happens; null for no timer. */
  readonly wakeAt: number | null
}

const IDLE: PolicyDecision = { admit: [], switchTo: null, startNow: false, cutInFlight: false, wakeAt: null }

export function decideSwitch(input: PolicyInput): PolicyDecision {
  if (input.decided !== null) {
    const { target, at } = input.decided
    if (input.running === target || input.held.some((h) => h.profileId === target)) return drain(input, target, at)
    // Nobody waits for the decided profile any more (its requests left, or a later choice replaced a click): the switch
    // goes to the oldest other held profile, its drain counted from the first decision, or there is no switch.
    const next = input.held.find((h) => h.profileId !== input.running)
    return next === undefined ? decideSwitch({ ...input, decided: null }) : drain(input, next.profileId, at)
  }
  const { held, running } = input
  if (running === null) {
    const first = held[0]
    return first === undefined ? IDLE : { ...IDLE, switchTo: first.profileId, startNow: true }
  }
  const own = held.filter((h) => h.profileId === running).map((h) => h.id)
  const other = held.find((h) => h.profileId !== running)
  const admit = input.ready ? own : []
  if (other === undefined) return { ...IDLE, admit }
  // Not yet ready: residency counts from the load, so a start in progress is left to finish.
  const residentUntil = input.loadedAt === null ? null : input.loadedAt + input.minResidencyMs
  // Counted from the load, idle or not: a profile loaded moments ago and asked for again soon (A B A A C) is not
  // swapped out at once. A click on a profile that has run a while switches at once; "Switch now" skips the wait.
  if (!input.forced && (residentUntil === null || input.now < residentUntil)) return { ...IDLE, admit, wakeAt: residentUntil }
  // The switch is decided; the running profile's requests older than the oldest other one still go first.
  const older = input.ready ? held.filter((h) => h.profileId === running && h.arrivedAt <= other.arrivedAt).map((h) => h.id) : []
  return { ...drain({ ...input, inFlight: input.inFlight + older.length }, other.profileId, input.now), admit: older }
}

function drain(input: PolicyInput, target: string, decidedAt: number): PolicyDecision {
  if (input.running === target) {
    // Already there (a restart of the target itself): nothing to stop.
    return { ...IDLE, admit: input.ready ? input.held.filter((h) => h.profileId === target).map((h) => h.id) : [] }
  }
  if (input.inFlight === 0) return { ...IDLE, switchTo: target, startNow: true }
  const deadline = decidedAt + input.drainMs
  const cut = input.forced || input.now >= deadline
  return { ...IDLE, switchTo: target, cutInFlight: cut, wakeAt: cut ? null : deadline }
}
