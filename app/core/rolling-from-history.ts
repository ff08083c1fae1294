import type { HistoryRequest } from '../contract/history'
import type { RequestTimings } from '../contract/generation'
import type { HistoryStore } from '../history/history-store'
import { ProfileRollingStore } from '../metrics/rolling-figures'

/** As many of a profile's newest requests as the rolling figures look at. */
export const ROLLING_WINDOW = 50

/** A stored request as the rolling figures read it; null for one that generated nothing (a failed request). */
export function timingsOfHistoryRequest(r: HistoryRequest): RequestTimings | null {
  if (r.error !== null || r.generatedTokens === null || r.generationPerSecond === null || r.generationPerSecond <= 0) return null
  // The history counts the prompt as the client's `usage` does (cached tokens included); the speed is of the processed ones.
  const processed = Math.max(0, (r.promptTokens ?? 0) - (r.cachedTokens ?? 0))
  const promptPerSecond = r.promptPerSecond ?? 0
  return {
    time: r.time,
    slotId: null,
    taskId: null,
    promptTokens: processed,
    promptMs: promptPerSecond > 0 ? (processed / promptPerSecond) * 1000 : 0,
    promptTokensPerSecond: promptPerSecond,
    predictedTokens: r.generatedTokens,
    predictedMs: (r.generatedTokens / r.generationPerSecond) * 1000,
    predictedTokensPerSecond: r.generationPerSecond,
    draftTokens: r.draftTokens,
    draftAccepted: r.draftAccepted,
    draftAcceptance: r.draftTokens && r.draftAccepted !== null ? r.draftAccepted / r.draftTokens : null,
    energyJ: r.energyJ,
  }
}

/**
 * Each profile's newest requests from the usage history, so that the rolling
 * figures (the speed-drop baseline among them) start where the last run left
 * them. No history: an empty store.
 */
export async function rollingFromHistory(history: HistoryStore | null, window = ROLLING_WINDOW): Promise<ProfileRollingStore> {
  const rolling = new ProfileRollingStore(window)
  if (!history) return rolling
  const profiles = await history.listProfiles({ sinceMs: null, profileId: null }).catch(() => [])
  // The least recently used first, as the store keeps them.
  for (const p of [...profiles].sort((a, b) => a.lastTime - b.lastTime)) {
    if (!p.profileId) continue
    const requests = await history.listRequests({ sinceMs: null, profileId: p.profileId, limit: window * 2 }).catch(() => [])
    const timings = requests.flatMap((r) => timingsOfHistoryRequest(r) ?? [])
    for (const t of timings.slice(-window)) rolling.add(p.profileId, t)
  }
  return rolling
}
