import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchSpec } from '../../app/contract/commands'
import type { ServerLoadProgress, ServerStatus } from '../../app/contract/server-state'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { writeNoChannelServer } from '../helpers/no-channel-server'
import { postJson } from '../helpers/post-json'
import { runningProcess } from '../helpers/server-status'
import { SupervisorHarness } from '../helpers/supervisor-harness'
import { PROGRESS_MODEL_ARGS, writeProgressModel } from '../helpers/synthetic/progress-model'

// llama-server's child channel (app/supervisor/child-channel.ts) against the real server (mainline v0.5.0
// from node-llama-cpp's bundle): its own load progress, ready and sleeping from stdout, the stop through stdin.
let bin: string
let progressModel: string
let scratch: string
const harnesses: SupervisorHarness[] = []

function harness(): SupervisorHarness {
  const h = new SupervisorHarness()
  harnesses.push(h)
  return h
}

beforeAll(async () => {
  bin = llamaServerBin()
  progressModel = await writeProgressModel()
  scratch = mkdtempSync(join(tmpdir(), 'llama-tray-channel-'))
}, 900_000)

afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.dispose()
    expect(h.pids.alive(), 'llama-server processes left behind').toEqual([])
  }
})

afterAll(() => {
  rmSync(dirname(progressModel), { recursive: true, force: true })
  rmSync(scratch, { recursive: true, force: true })
})

const progressOf = (statuses: readonly ServerStatus[]): ServerLoadProgress[] =>
  statuses.flatMap((s) => (s.state === 'loading' && s.progress ? [s.progress] : []))

describe('the child channel of the real llama-server', () => {
  it("shows the server's own load progress, several values up to 1, then stops through stdin with exit code 0", async () => {
    const h = harness()
    const spec: LaunchSpec = { profileId: 'progress', exe: bin, args: ['-m', progressModel, ...PROGRESS_MODEL_ARGS] }
    const ready = await h.supervisor.start(spec)
    expect(ready.state).toBe('ready')
    const progress = progressOf(h.statuses)
    const values = progress.map((p) => p.value)
    expect(new Set(values).size, `values seen: ${values.join(', ')}`).toBeGreaterThanOrEqual(3)
    expect(values).toEqual([...values].sort((a, b) => (a ?? 0) - (b ?? 0)))
    expect(values[values.length - 1]).toBe(1)
    expect(progress.every((p) => p.stage === 'text_model' && p.stages.join() === 'text_model')).toBe(true)
    expect(h.states).toEqual(['starting', 'loading', 'ready'])
    // The channel's lines are messages, not log.
    expect(h.supervisor.getLogs().some((l) => l.includes('cmd_child_to_router'))).toBe(false)

    const stopped = await h.supervisor.stop()
    expect(stopped.lastExit?.code).toBe(0)
    expect(stopped.lastExit?.signal).toBeNull()
    expect(h.supervisor.getLogs().join('\n')).toMatch(/llama-server stopped through its stdin channel \(exit code 0\)/)
    expect(h.supervisor.getLogs().join('\n')).toMatch(/exit command received, exiting/)
  })

  it('reports the reload while a request wakes a sleeping server, then ready again', async () => {
    const h = harness()
    const args = ['-m', model('tiny-target.gguf'), '-c', '512', '-np', '1', '-t', '1', '--sleep-idle-seconds', '1']
    const ready = await h.supervisor.start({ profileId: 'sleepy', exe: bin, args })
    await h.waitFor('sleeping')
    const before = h.statuses.length
    const { status } = await postJson(runningProcess(ready).port, '/completion', { prompt: 'Hi', n_predict: 2 })
    expect(status).toBe(200)
    const awake = await h.waitFor('ready')
    expect(awake.pid).toBe(ready.pid)
    const waking = h.statuses.slice(before).flatMap((s) => (s.state === 'sleeping' && s.waking ? [s.waking] : []))
    expect(waking.length).toBeGreaterThan(0)
    expect(waking[waking.length - 1]?.value).toBe(1)
  })

  it('runs a binary without the channel as before: no progress of its own, stopped by a signal', async () => {
    // A stand-in for a fork or an older build: the same server with the channel's variable taken away.
    const standIn = writeNoChannelServer(scratch, bin)
    const h = harness()
    const ready = await h.supervisor.start({
      profileId: 'fork',
      exe: standIn,
      args: ['-m', model('tiny-target.gguf'), '-c', '512', '-t', '1'],
    })
    expect(ready.state).toBe('ready')
    expect(progressOf(h.statuses)).toEqual([])
    const stopped = await h.supervisor.stop()
    expect(stopped.lastExit?.code).toBe(0)
    const log = h.supervisor.getLogs().join('\n')
    expect(log).toMatch(/llama-server stopped \(exit code 0\)/)
    expect(log).not.toMatch(/stdin channel/)
  })
})
