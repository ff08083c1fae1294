import { sentences } from '../contract/wording'
import { sleepingDetail } from '../contract/server-state'

/** Said when Ctrl+C comes again while llama-server is being stopped (run and serve). */
export const STILL_STOPPING = 'Still stopping llama-server; it is killed if it does not exit.'

/** What `serve` says about a server when it reaches one of these states; other states are not announced. */
export interface AnnouncedState {
  readonly state: string
  /** The profile, or null for a server started without one. */
  readonly profileId: string | null
  readonly pinned?: boolean
  readonly sleepIdleSeconds?: number | null
  /** Why it failed, a fragment from the supervisor ("llama-server exited with code 1"), and what to do. */
  readonly reason?: string | null
  readonly hint?: string | null
}

/** "Profile "a" is ready.", "Profile "a" (pinned) failed: … Check …." or null for a state not worth a line. */
export function serverStateSentence(s: AnnouncedState): string | null {
  const who = `${s.profileId === null ? 'The server' : `Profile "${s.profileId}"`}${s.pinned ? ' (pinned)' : ''}`
  if (s.state === 'ready') return `${who} is ready.`
  if (s.state === 'sleeping') return sentences(`${who} is sleeping: ${sleepingDetail(s.sleepIdleSeconds)}`)
  if (s.state === 'errored' || s.state === 'crashloop') {
    const what = s.state === 'crashloop' ? 'keeps crashing' : 'failed'
    return sentences(s.reason ? `${who} ${what}: ${s.reason}` : `${who} ${what}`, s.hint)
  }
  return null
}
