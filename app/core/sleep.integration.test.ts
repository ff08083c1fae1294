import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerStateKind, ServerStatus } from '../contract/server-state'
import type { Snapshot } from '../contract/snapshot'
import { formatCommandLine } from '../lib/command-line'
import { call } from '../../test/support/endpoint/client'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning, waitUntil } from '../../test/helpers/processes'
import { createStandardCore } from './create-core'
import type { LlamaTrayCore } from './llama-tray-core'
import { runningProcess } from '../../test/helpers/server-status'

// A real llama-server with --sleep-idle-seconds 2 under the core as the app runs it (telemetry, the live
// advisor, the /slots poller, the endpoint): it must fall asleep and stay asleep while the app runs, and a
// client's request must wake it and be answered. Deadlines are sanity bounds, never goals.
const SLEEP_S = 2
const ENTERING = /entering sleeping state/
const EXITING = /exiting sleeping state/

describe('a sleeping llama-server under Llama Tray', () => {
  let core: LlamaTrayCore
  let home: string
  let endpointPort: number
  const states: ServerStateKind[] = []
  const snapshots: Snapshot[] = []
  const pids = new Set<number>()

  const state = (): ServerStateKind => core.server.getStatus().state
  const logs = (): readonly string[] => core.server.getLogs(5000)
  const waitForState = (wanted: ServerStateKind, what: string, timeoutMs = 10 * (SLEEP_S * 1000 + 3000)): Promise<void> =>
    waitUntil(() => state() === wanted, timeoutMs, what)

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-sleep-'))
    core = await createStandardCore({ home, cadenceMs: 250, supervisor: { readyTimeoutMs: 60_000 } })
    core.on('server:state-changed', (s: ServerStatus) => {
      if (s.pid) pids.add(s.pid)
      if (states[states.length - 1] !== s.state) states.push(s.state)
    })
    core.on('snapshot', (s) => snapshots.push(s))
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([
        bin,
        '-m',
        model('tiny-target.gguf'),
        '-c',
        '512',
        '-np',
        '1',
        '-t',
        '1',
        '--seed',
        '1',
        '--sleep-idle-seconds',
        String(SLEEP_S),
      ]),
      'sleepy',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    endpointPort = listened.status.port
    const started = await core.handlers['server:start']('sleepy')
    if (!started.ok) throw new Error(started.error.sentence)
  }, 300_000)

  afterAll(async () => {
    await core?.dispose()
    for (const pid of pids) expect(isRunning(pid), `llama-server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  it('falls asleep after the idle seconds and shows it as a calm state, with the seconds', async () => {
    await waitForState('sleeping', 'the server to fall asleep')
    expect(logs().some((l) => ENTERING.test(l))).toBe(true)
    const status = core.server.getStatus()
    expect(status).toMatchObject({ state: 'sleeping', sleepIdleSeconds: SLEEP_S, lastExit: null, restarts: 0 })
    expect(status.pid).not.toBeNull()
    expect(status.state === 'sleeping' ? status.readySince : null).toBeGreaterThan(0)
    await waitUntil(() => snapshots.at(-1)?.server.state === 'sleeping', 10_000, 'a snapshot of the sleeping server')
    expect(states.slice(-2)).toEqual(['ready', 'sleeping'])
    expect(states.filter((s) => s === 'backoff' || s === 'errored' || s === 'crashloop' || s === 'stopping')).toEqual([])
  })

  it('stays asleep while the app runs: nothing the app does wakes it', async () => {
    const from = logs().length
    const ticks = snapshots.length
    // Four times the sleep: the idle /slots poll (1, 2, 4 s apart) and the advisor's rechecks had their chances.
    await new Promise((r) => setTimeout(r, 4 * SLEEP_S * 1000))
    const since = logs().slice(from)
    expect(
      since.filter((l) => EXITING.test(l)),
      since.join('\n'),
    ).toEqual([])
    expect(state()).toBe('sleeping')
    expect(snapshots.length - ticks).toBeGreaterThan(4) // the app kept ticking all along
    expect(snapshots.at(-1)?.warnings.filter((w) => w.level !== 'info')).toEqual([])
  })

  it('wakes for a completion sent straight to the server, answers it, then sleeps again', async () => {
    const port = runningProcess(core.server.getStatus()).port
    const before = states.length
    const answer = await call(port, 'POST', '/completion', { prompt: 'Hello', n_predict: 4 })
    expect(answer.status, answer.body).toBe(200)
    expect((JSON.parse(answer.body) as { tokens_predicted: number }).tokens_predicted).toBeGreaterThan(0)
    await waitForState('sleeping', 'the server to fall asleep again')
    expect(states.slice(before)).toEqual(['ready', 'sleeping'])
    expect(logs().filter((l) => EXITING.test(l)).length).toBeGreaterThan(0)
  })

  it('wakes for a request through the endpoint (never held as if the server were down), then sleeps again', async () => {
    const before = states.length
    const answer = await call(endpointPort, 'POST', '/v1/chat/completions', {
      model: 'sleepy',
      messages: [{ role: 'user', content: 'Say hi' }],
      max_tokens: 4,
    })
    expect(answer.status, answer.body).toBe(200)
    expect((JSON.parse(answer.body) as { choices: unknown[] }).choices.length).toBe(1)
    await waitForState('sleeping', 'the server to fall asleep after the endpoint request')
    expect(states.slice(before)).toEqual(['ready', 'sleeping'])
    // The endpoint's /health answers for a sleeping server without waking it.
    const from = logs().length
    expect((await call(endpointPort, 'GET', '/health')).status).toBe(200)
    await new Promise((r) => setTimeout(r, 500))
    expect(
      logs()
        .slice(from)
        .filter((l) => EXITING.test(l)),
    ).toEqual([])
  })
})
