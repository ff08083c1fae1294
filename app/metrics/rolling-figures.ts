import type { RequestTimings, RollingGenerationFigures } from '../contract/generation'
import { RingBuffer } from '../lib/ring-buffer'
import { median } from './median'
import { joulesPerThousandTokens } from '../telemetry/gpu/energy-meter'

/** A prompt this long is processed in full batches: its speed says something about the engine. */
export const LONG_PROMPT_TOKENS = 256

/**
 * Recent requests per launch profile, for rolling figures (median generation
 * speed, acceptance) that outlive one server run. Bounded: `window` requests
 * per profile and `maxProfiles` profiles (the least recently used is dropped).
 * Share one store between the trackers of successive runs.
 */
export class ProfileRollingStore {
  private readonly byProfile = new Map<string, RingBuffer<RequestTimings>>()

  constructor(
    private readonly window = 50,
    private readonly maxProfiles = 64,
  ) {}

  add(profileId: string, request: RequestTimings): void {
    let ring = this.byProfile.get(profileId)
    if (ring)
      this.byProfile.delete(profileId) // re-insert: Map order is our LRU order
    else ring = new RingBuffer<RequestTimings>(this.window)
    this.byProfile.set(profileId, ring)
    ring.push(request)
    while (this.byProfile.size > this.maxProfiles) {
      const oldest = this.byProfile.keys().next().value
      if (oldest === undefined) break
      this.byProfile.delete(oldest)
    }
  }

  figures(profileId: string): RollingGenerationFigures | null {
    const requests = this.byProfile.get(profileId)?.tail()
    if (!requests || requests.length === 0) return null
    // Requests of one token have no generation rate (v0.5.0 prints 0): leave them out of the median.
    const generating = requests.filter((r) => r.predictedTokens > 1)
    const prompted = requests.filter((r) => r.promptTokens > 0)
    const long = requests.filter((r) => r.promptTokens >= LONG_PROMPT_TOKENS)
    let drafted = 0
    let accepted = 0
    for (const r of requests) {
      if (r.draftTokens !== null && r.draftAccepted !== null) {
        drafted += r.draftTokens
        accepted += r.draftAccepted
      }
    }
    return {
      profileId,
      requests: requests.length,
      medianTokensPerSecond: median(generating.map((r) => r.predictedTokensPerSecond)),
      medianPromptTokensPerSecond: median(prompted.map((r) => r.promptTokensPerSecond)),
      medianLongPromptTokensPerSecond: median(long.map((r) => r.promptTokensPerSecond)),
      longPrompts: long.length,
      draftAcceptance: drafted > 0 ? accepted / drafted : null,
      joulesPer1000Tokens: joulesPerThousandTokens(requests),
    }
  }
}
