import type { SlotGeneration } from '../contract/generation'

/** What the estimate of a waiting switch is made from: the scheduler's counts and the core's live generation figures. */
export interface SwitchEstimateInput {
  /** Requests the running server is still answering (the scheduler's leases). */
  readonly runningRequests: number
  /** The running server's slots from the last /slots poll; empty when unknown. */
  readonly slots: readonly SlotGeneration[]
  /** The profile's median generation rate over its recent requests, for a slot that has no live rate yet. */
  readonly medianTokensPerSecond: number | null
  /** Seconds until the running profile's minimum residency ends (0 when it has ended). */
  readonly residencyLeftS: number
  /** Seconds until the drain limit cuts the running requests: the switch happens by then whatever they do. */
  readonly drainLeftS: number
}

export interface SwitchEstimate {
  /** About how many seconds until the switch begins; null when a running request's end cannot be estimated. */
  readonly estimateS: number | null
  /** "After 2 running requests, about 20 s." or, when unknown, "After 2 running requests (at most 60 s)." */
  readonly when: string
}

const requestsWord = (n: number): string => (n === 1 ? '1 running request' : `${n} running requests`)

/** Whole seconds, at least 1: "about 0 s" says nothing. */
const seconds = (s: number): number => Math.max(1, Math.round(s))

/** The rate a busy slot generates at: its own live rate, else the others' live mean, else the profile's median. */
function slotRate(slot: SlotGeneration, busy: readonly SlotGeneration[], median: number | null): number | null {
  if (slot.tokensPerSecond !== null && slot.tokensPerSecond > 0) return slot.tokensPerSecond
  const live = busy.map((s) => s.tokensPerSecond).filter((r): r is number => r !== null && r > 0)
  if (live.length > 0) return live.reduce((a, b) => a + b, 0) / live.length
  return median !== null && median > 0 ? median : null
}

/**
 * Seconds until every running request has finished, or null when one of them
 * cannot be estimated: a request without max_tokens/n_predict (llama-server
 * reports n_remain -1), no rate known, or more requests than busy slots (one
 * is queued inside llama-server or has not reached a slot yet). Slots generate
 * side by side, so the longest one decides.
 */
function requestsLeftS(input: SwitchEstimateInput): number | null {
  const busy = input.slots.filter((s) => s.state !== 'idle')
  if (busy.length < input.runningRequests) return null
  let longest = 0
  for (const slot of busy) {
    if (slot.remaining === null || slot.remaining < 0) return null
    const rate = slotRate(slot, busy, input.medianTokensPerSecond)
    if (rate === null) return null
    longest = Math.max(longest, slot.remaining / rate)
  }
  return longest
}

/**
 * When a waiting switch will happen, as a number and a sentence. Pure: the
 * scheduler gives its counts and bounds, the core its /slots figures.
 */
export function estimateSwitch(input: SwitchEstimateInput): SwitchEstimate {
  const drain = Math.max(0, input.drainLeftS)
  if (input.runningRequests === 0) {
    if (input.residencyLeftS <= 0) return { estimateS: 0, when: 'Now.' }
    const s = seconds(input.residencyLeftS)
    return { estimateS: s, when: `After the running profile's minimum time loaded, about ${s} s.` }
  }
  const left = requestsLeftS(input)
  const after = `After ${requestsWord(input.runningRequests)}`
  if (left === null) return { estimateS: null, when: `${after} (at most ${seconds(drain + input.residencyLeftS)} s).` }
  // The drain limit runs from the decision (after the residency): requests still running then are cut.
  const bound = input.residencyLeftS + drain
  const total = Math.max(left, input.residencyLeftS)
  if (total >= bound) return { estimateS: seconds(bound), when: `${after} (at most ${seconds(bound)} s, the drain limit).` }
  const s = seconds(total)
  return { estimateS: s, when: `${after}, about ${s} s.` }
}

/** The sentence views show beside "Switch now": the estimate's words inside one sentence naming both profiles. */
export function pendingSwitchSentence(target: string, from: string, estimate: SwitchEstimate, runningRequests: number): string {
  const when = estimate.when.replace(/\.$/, '')
  const phrase = when === 'Now' ? 'now' : `${when.charAt(0).toLowerCase()}${when.slice(1)}`
  const cut = runningRequests > 0 ? '; "Switch now" cuts them' : '; "Switch now" skips the wait'
  return `Profile "${target}" replaces "${from}" ${phrase}${cut}.`
}
