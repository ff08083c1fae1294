import { pinnedFigures } from '../contract/pinned-figures'
import { serverOrigin } from '../contract/client-url'
import { serverStateSentence } from './server-sentences'
import type { PinnedServerView, Snapshot } from '../contract/snapshot'

/** The states worth a line of their own: ready, or given up on (a restart under way says itself when it is ready again). */
const SAID_STATES = new Set(['ready', 'errored', 'crashloop'])

/**
 * "Profile "embed" (pinned) is ready at http://127.0.0.1:41234. Last 9.8 tok/s · 1 restart.", or its state and why it
 * stopped, in the words `serve` uses for the active server.
 */
export function pinnedLine(p: PinnedServerView): string {
  const figures = pinnedFigures(p)
  const tail = figures ? ` ${figures.charAt(0).toUpperCase()}${figures.slice(1)}.` : ''
  if (p.state === 'ready' && p.port !== null)
    return `Profile "${p.profileId}" (pinned) is ready at ${serverOrigin('127.0.0.1', p.port)}.${tail}`
  const said = serverStateSentence({ state: p.state, profileId: p.profileId, pinned: true, reason: p.lastExit?.sentence ?? null })
  return `${said ?? `Profile "${p.profileId}" (pinned) is ${p.state}.`}${tail}`
}

/** The status row's part for the pinned servers: "+embed ready", "+embed 12.3 tok/s", "+embed backoff". */
export function pinnedStatusParts(pinned: readonly PinnedServerView[] | undefined): string[] {
  return (pinned ?? []).map((p) => {
    const live = p.generation?.active && p.generation.tokensPerSecond !== null ? `${p.generation.tokensPerSecond.toFixed(1)} tok/s` : null
    return `+${p.profileId} ${live ?? p.state}`
  })
}

/**
 * Follows the snapshots' pinned servers and hands on each one whose state or restart count changed (and, with
 * `everyRequest`, whose last request did): the text output prints its line for the states worth one, JSON every change.
 */
export function followPinned(say: (p: PinnedServerView, worthALine: boolean) => void, everyRequest: boolean): (s: Snapshot) => void {
  const said = new Map<string, string>()
  return (snapshot) => {
    for (const p of snapshot.pinned ?? []) {
      const key = `${p.state} ${p.restarts}${everyRequest ? ` ${p.generation?.last?.time ?? ''}` : ''}`
      if (said.get(p.profileId) === key) continue
      said.set(p.profileId, key)
      say(p, SAID_STATES.has(p.state))
    }
  }
}
