import { postJson } from '../helpers/post-json'
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchSpec } from '../../app/contract/commands'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { SupervisorHarness } from '../helpers/supervisor-harness'
import { runningProcess } from '../helpers/server-status'

// Against the real llama-server (mainline v0.5.0 built from node-llama-cpp's
// bundle) and the tiny real GGUF models from test/fixtures/models.
let bin: string
const harnesses: SupervisorHarness[] = []

function harness(options: ConstructorParameters<typeof SupervisorHarness>[0] = {}): SupervisorHarness {
  const h = new SupervisorHarness(options)
  harnesses.push(h)
  return h
}

function spec(args: string[], profileId = 'test'): LaunchSpec {
  return { profileId, exe: bin, args: ['-c', '4096', '-np', '1', '-t', '1', ...args] }
}

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)

afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.dispose()
    expect(h.pids.alive(), 'llama-server processes left behind').toEqual([])
  }
})

describe('supervisor against the real llama-server', () => {
  it('start → ready → a completion → stop, with the exact state sequence', async () => {
    const h = harness()
    const ready = await h.supervisor.start(spec(['-m', model('tiny-target.gguf')]))
    expect(ready.state).toBe('ready')
    expect(ready.host).toBe('127.0.0.1')
    expect(ready.port).toBeGreaterThan(0)
    const { status, json } = await postJson(runningProcess(ready).port, '/completion', { prompt: 'Hello', n_predict: 16, ignore_eos: true })
    expect(status).toBe(200)
    expect((json.timings as { predicted_n: number }).predicted_n).toBe(16)
    const stopped = await h.supervisor.stop()
    expect(stopped.state).toBe('stopped')
    expect(stopped.lastExit?.code).toBe(0)
    expect(h.states).toEqual(['starting', 'loading', 'ready', 'stopping', 'stopped'])
    expect(isRunning(runningProcess(ready).pid)).toBe(false)
  })

  it('restarts with backoff after kill -9 while ready', async () => {
    const h = harness({ restartPolicy: { initialDelayMs: 400, maxDelayMs: 30_000, stableAfterMs: 60_000, maxUnstableExits: 5 } })
    const first = await h.supervisor.start(spec(['-m', model('tiny-target.gguf')]))
    const killedAt = Date.now()
    process.kill(runningProcess(first).pid, 'SIGKILL')
    const backoff = await h.waitFor('backoff')
    expect(backoff.lastExit?.signal).toBe('SIGKILL')
    expect(backoff.lastExit?.kind).toBe('crashed')
    expect(backoff.restartAt).toBeGreaterThanOrEqual(killedAt + 400)
    await h.waitFor('starting')
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(390)
    const again = await h.waitFor('ready')
    expect(again.pid).not.toBe(first.pid)
    expect(again.restarts).toBe(1)
    expect(h.states).toEqual(['starting', 'loading', 'ready', 'backoff', 'starting', 'loading', 'ready'])
  })

  it('gives up after 5 quick crashes in a row (crashloop)', async () => {
    const h = harness({ restartPolicy: { initialDelayMs: 50, maxDelayMs: 30_000, stableAfterMs: 60_000, maxUnstableExits: 5 } })
    // The delay each backoff announced, read when the state is emitted (the same tick it is decided in),
    // so a busy machine delaying this test cannot change it.
    const delays: number[] = []
    h.supervisor.on('state', (s) => {
      if (s.state === 'backoff') delays.push((s.restartAt as number) - Date.now())
    })
    let status = await h.supervisor.start(spec(['-m', model('tiny-target.gguf')]))
    for (let crash = 1; crash <= 5; crash++) {
      expect(status.state).toBe('ready')
      process.kill(runningProcess(status).pid, 'SIGKILL')
      if (crash < 5) {
        await h.waitFor('backoff')
        status = await h.waitFor('ready')
      }
    }
    const final = await h.waitFor('crashloop')
    expect(final.restarts).toBe(4)
    expect(final.lastExit?.reason).toMatch(/gave up after 5 unstable exits/)
    expect(final.lastExit?.signal).toBe('SIGKILL')
    // Backoff doubles: 50, 100, 200, 400 ms.
    expect(delays.map((d) => Math.round(d / 50) * 50)).toEqual([50, 100, 200, 400])
  })

  it.each([
    ['missing model', () => ['-m', join(tmpdir(), 'does-not-exist.gguf')], 'model-missing', /does not exist/],
    [
      'not a GGUF (bad magic)',
      () => ['-m', writeTemp('bad-magic.gguf', Buffer.from('this is not a gguf file'))],
      'model-corrupt',
      /not a GGUF/,
    ],
    ['truncated GGUF (half)', () => ['-m', truncatedCopy(0.5)], 'model-corrupt', /corrupt or incomplete/],
    ['truncated GGUF (4 KiB)', () => ['-m', truncatedCopy(4096)], 'model-corrupt', /corrupt or incomplete/],
    ['removed flag --no-mmap', () => ['-m', model('tiny-target.gguf'), '--no-mmap'], 'flag-removed', /--no-mmap/],
    ['unknown flag', () => ['-m', model('tiny-target.gguf'), '--definitely-not-a-flag'], 'flag-unknown', /--definitely-not-a-flag/],
  ])('%s → errored with the reason', async (_name, args, kind, reason) => {
    const h = harness()
    const status = await h.supervisor.start(spec(args()))
    expect(status.state).toBe('errored')
    expect(status.lastExit?.kind).toBe(kind)
    expect(status.lastExit?.reason).toMatch(reason)
    expect(status.lastExit?.hint).toBeTruthy()
    if (kind === 'flag-removed') expect(status.lastExit?.hint).toMatch(/-lm none/)
    expect(h.states).not.toContain('backoff')
  })

  it('port in use (another real llama-server holds it) → errored with the reason', async () => {
    const holder = harness()
    const held = await holder.supervisor.start(spec(['-m', model('tiny-target.gguf')], 'holder'))
    const h = harness()
    const status = await h.supervisor.start(spec(['-m', model('tiny-target.gguf'), '--port', String(held.port)]))
    expect(status.state).toBe('errored')
    expect(status.lastExit?.kind).toBe('port-in-use')
    expect(status.lastExit?.reason).toContain(String(held.port))
    expect(holder.supervisor.getStatus().state).toBe('ready')
  })

  it('stops within 10 s while a streaming completion is in flight', async () => {
    const h = harness()
    const ready = await h.supervisor.start(spec(['-m', model('tiny-target.gguf')]))
    const firstChunk = new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: runningProcess(ready).port,
          path: '/completion',
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.once('data', () => resolve())
          res.on('error', () => {})
        },
      )
      req.on('error', (err) => reject(err))
      req.end(JSON.stringify({ prompt: 'Hello', n_predict: 100_000, ignore_eos: true, stream: true }))
    })
    await firstChunk
    const t0 = Date.now()
    const stopped = await h.supervisor.stop()
    const elapsed = Date.now() - t0
    expect(stopped.state).toBe('stopped')
    // The escalation's own bound (3 s + 2.5 s of grace, then SIGKILL), with room for a busy machine.
    expect(elapsed).toBeLessThan(20_000)
    expect(isRunning(runningProcess(ready).pid)).toBe(false)
    // A clean end either way: the exit line on stdin (the child channel: the server cancels the stream's task and
    // exits, as it does once it is quick enough), or, where the streaming client keeps its HTTP join waiting, the
    // escalation's second signal.
    expect(h.supervisor.getLogs().join('\n')).toMatch(
      /stopped through its stdin channel \(exit code 0\)|stopped after a second signal|stopped \(exit code 0\)/,
    )
  })

  it('switches from one running server to another with one start()', async () => {
    const h = harness()
    const a = await h.supervisor.start(spec(['-m', model('tiny-target.gguf')], 'a'))
    const b = await h.supervisor.start(
      spec(['-m', model('tiny-target.gguf'), '-md', model('tiny-draft.gguf'), '--spec-type', 'draft-simple'], 'b'),
    )
    expect(b.state).toBe('ready')
    expect(b.profileId).toBe('b')
    expect(b.pid).not.toBe(a.pid)
    expect(isRunning(runningProcess(a).pid)).toBe(false)
  })
})

let tmp: string | null = null
function tmpDir(): string {
  tmp ??= mkdtempSync(join(tmpdir(), 'llama-tray-models-'))
  return tmp
}
function writeTemp(name: string, data: Buffer): string {
  const path = join(tmpDir(), name)
  writeFileSync(path, data)
  return path
}
function truncatedCopy(keep: number): string {
  const source = model('tiny-target.gguf')
  const data = readFileSync(source)
  const bytes = keep < 1 ? Math.floor(data.length * keep) : keep
  const path = join(tmpDir(), `truncated-${bytes}.gguf`)
  copyFileSync(source, path)
  writeFileSync(path, data.subarray(0, bytes))
  return path
}
