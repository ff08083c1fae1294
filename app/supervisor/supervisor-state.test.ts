import { describe, expect, it } from 'vitest'
import type { ExitInfo, ServerProcess } from '../contract/server-state'
import { SERVER_STATE_KINDS } from '../contract/server-state'
import { serverStatusSchema } from '../../test/helpers/snapshot-schema'
import { newSession, statusOf, type SupervisorState } from './supervisor-state'

const proc: ServerProcess = { pid: 4242, host: '127.0.0.1', port: 8081 }
const exit: ExitInfo = { code: 1, signal: null, reason: 'the model file does not exist', hint: null, kind: 'model-missing', problem: null }
const download = { repo: 'o/r', file: 'a.gguf', bytes: 1e6, total: null, rateBps: 0 }
const timer = setTimeout(() => {}, 0)
clearTimeout(timer)

/** One supervisor state of each kind (starting twice: before and after the spawn). */
const STATES: readonly SupervisorState[] = [
  { kind: 'stopped' },
  { kind: 'starting', process: null },
  { kind: 'starting', process: proc },
  { kind: 'downloading', process: proc, download },
  { kind: 'loading', process: proc },
  { kind: 'ready', process: proc, readySince: 1000 },
  { kind: 'sleeping', process: proc, readySince: 1000 },
  { kind: 'stopping', process: proc },
  { kind: 'backoff', exit, restartAt: 2000, timer },
  { kind: 'crashloop', exit },
  { kind: 'errored', exit },
]

describe("the contract's ServerStatus, one record per state", () => {
  const session = newSession({ profileId: 'qwen', exe: '/opt/llama-server', args: ['--sleep-idle-seconds', '60'] }, 60)

  it.each(STATES.map((s) => [s.kind, s] as const))('%s has exactly the fields of its state', (_kind, state) => {
    const status = statusOf(state, session, null)
    expect(serverStatusSchema.safeParse(status).error).toBeUndefined()
    expect(status.state).toBe(state.kind)
  })

  it('covers every state kind', () => {
    expect(new Set(STATES.map((s) => s.kind))).toEqual(new Set(SERVER_STATE_KINDS))
  })

  it('a pid and port only while a process runs, the ready time only while it serves, the failure in the failed states', () => {
    expect(statusOf({ kind: 'ready', process: proc, readySince: 1000 }, session, null)).toMatchObject({
      pid: 4242,
      port: 8081,
      readySince: 1000,
      sleepIdleSeconds: 60,
    })
    expect(statusOf({ kind: 'stopped' }, session, exit)).toEqual({
      state: 'stopped',
      profileId: 'qwen',
      exe: '/opt/llama-server',
      lastExit: exit,
      restarts: 0,
      pid: null,
      host: null,
      port: null,
    })
    expect(statusOf({ kind: 'errored', exit }, session, null).lastExit).toBe(exit)
  })

  it('the schema refuses a field of another state', () => {
    const ready = statusOf({ kind: 'ready', process: proc, readySince: 1000 }, session, null)
    expect(serverStatusSchema.safeParse({ ...ready, restartAt: 5 }).success).toBe(false)
    expect(serverStatusSchema.safeParse({ ...ready, state: 'backoff' }).success).toBe(false)
    expect(serverStatusSchema.safeParse({ ...ready, state: 'stopped' }).success).toBe(false)
  })
})
