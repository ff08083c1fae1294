import { describe, expect, it } from 'vitest'
import { problem } from '../contract/problem'
import type { ServerStatus } from '../contract/server-state'
import type { PinnedServerView, Snapshot } from '../contract/snapshot'
import { buildSnapshot } from '../snapshot/build-snapshot'
import { followPinned, pinnedLine, pinnedStatusParts } from './pinned-lines'
import { formatStatusLine } from './status-line'

const ready: PinnedServerView = {
  profileId: 'embed',
  name: 'Embeddings',
  state: 'ready',
  port: 41234,
  pid: 7,
  lastExit: null,
  restarts: 0,
  generation: null,
}
const status: ServerStatus = {
  state: 'ready',
  profileId: 'big',
  pid: 42,
  host: '127.0.0.1',
  port: 8080,
  exe: 'llama-server',
  readySince: 0,
  sleepIdleSeconds: null,
  lastExit: null,
  restarts: 0,
}
const withPinned = (pinned: PinnedServerView[]): Snapshot => ({ ...buildSnapshot(status, {}), pinned })

describe('the CLI lines of pinned servers', () => {
  it('says where a ready one listens and what it did; why one stopped', () => {
    expect(pinnedLine({ ...ready, restarts: 1 })).toBe('Profile "embed" (pinned) is ready at http://127.0.0.1:41234. 1 restart.')
    const down: PinnedServerView = {
      ...ready,
      state: 'crashloop',
      port: null,
      pid: null,
      restarts: 5,
      lastExit: problem('server', 'the server crashed'),
    }
    expect(pinnedLine(down)).toBe('Profile "embed" (pinned) keeps crashing: The server crashed. 5 restarts.')
  })

  it('names each pinned server in the status row, with its live rate while it generates', () => {
    const generating = { ...ready, profileId: 'draft', generation: { active: true, tokensPerSecond: 55.55, last: null } }
    expect(
      pinnedStatusParts([
        ready,
        generating,
        { ...ready, profileId: 'x', state: 'backoff', pid: null, port: null, lastExit: problem('server', 'the server crashed') },
      ]),
    ).toEqual(['+embed ready', '+draft 55.5 tok/s', '+x backoff'])
    expect(formatStatusLine(status, withPinned([ready]), 65_000)).toBe('READY      pid 42  http://127.0.0.1:8080  up 1m05s  +embed ready')
  })

  it('hands on a pinned server once per change of its state or restarts (and of its last request, when asked)', () => {
    const said: string[] = []
    const follow = followPinned((p, worthALine) => said.push(`${p.state}${worthALine ? '!' : ''}`), false)
    follow(withPinned([{ ...ready, state: 'loading' }]))
    follow(withPinned([ready]))
    follow(withPinned([ready]))
    const last = { time: 1 } as NonNullable<PinnedServerView['generation']>['last']
    follow(withPinned([{ ...ready, generation: { active: false, tokensPerSecond: null, last } }]))
    follow(withPinned([{ ...ready, restarts: 1 }]))
    expect(said).toEqual(['loading', 'ready!', 'ready!'])

    const json: number[] = []
    const everyRequest = followPinned((p) => json.push(p.generation?.last?.time ?? 0), true)
    everyRequest(withPinned([ready]))
    everyRequest(withPinned([{ ...ready, generation: { active: false, tokensPerSecond: null, last } }]))
    expect(json).toEqual([0, 1])
  })
})
