import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '../contract/settings'
import type { Snapshot } from '../contract/snapshot'
import type { GpuDevice, GpuSnapshot } from '../contract/telemetry'
import { formatCommandLine } from '../lib/command-line'
import { runCli } from '../../test/helpers/cli'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning, waitUntil } from '../../test/helpers/processes'
import { LlamaTrayCore } from './llama-tray-core'
import { runningProcess } from '../../test/helpers/server-status'
import { IDLE_TICK_MS } from './tick-pace'

let bin: string
const cores: { core: LlamaTrayCore; home: string }[] = []

async function makeCore(): Promise<{ core: LlamaTrayCore; home: string }> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-core-'))
  const core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { healthIntervalMs: 20 } })
  cores.push({ core, home })
  return { core, home }
}

function complete(port: number, nPredict: number): Promise<{ predicted_per_second: number; predicted_n: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/completion', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (c: string) => (text += c))
        res.on('end', () => resolve((JSON.parse(text) as { timings: { predicted_per_second: number; predicted_n: number } }).timings))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ prompt: 'Hello', n_predict: nPredict, ignore_eos: true }))
  })
}

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)

afterEach(async () => {
  for (const { core, home } of cores.splice(0)) {
    const pid = core.server.getStatus().pid
    await core.dispose()
    if (pid) expect(isRunning(pid)).toBe(false)
    rmSync(home, { recursive: true, force: true })
  }
})

describe('LlamaTrayCore and files written by another process', () => {
  it('pushes a profile imported by the CLI and settings written by another process', async () => {
    const { core, home } = await makeCore()
    const profiles = new Promise<number>((done) => core.on('profiles:changed', (s) => done(s.profiles.length)))
    const imported = await runCli(['--home', home, 'profiles', 'import', '--force', '--', 'llama-server', '-m', 'other.gguf'])
    expect(imported.code).toBe(0)
    expect(await profiles).toBe(1)
    const settings = new Promise<AppSettings>((done) => core.on('settings:changed', done))
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ version: 1, port: 9123 }))
    expect((await settings).port).toBe(9123)
    expect(core.settings.port).toBe(9123)
  })
})

describe('LlamaTrayCore (the contract handlers over the real llama-server)', () => {
  it('imports a profile, starts it by id, reports generation in the snapshot, batches logs, stops', async () => {
    const { core } = await makeCore()
    const changes: number[] = []
    core.on('profiles:changed', (s) => changes.push(s.profiles.length))
    const logBatches: (readonly string[])[] = []
    core.on('server:log', (lines) => logBatches.push(lines))
    const snapshots: Snapshot[] = []
    core.on('snapshot', (s) => snapshots.push(s))

    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1']),
      'tiny',
    )
    expect(imported.ok).toBe(true)
    if (!imported.ok) return
    expect(changes).toEqual([1])

    const started = await core.handlers['server:start'](imported.value.id)
    expect(started.ok && started.value.state).toBe('ready')
    expect(changes).toEqual([1, 1]) // the switch changed the active profile
    const port = runningProcess(core.server.getStatus()).port
    const timings = await complete(port, 64)
    await waitUntil(() => core.snapshot().generation?.last?.predictedTokens === 64, 5000, 'the request in the snapshot')
    expect(core.snapshot().generation?.last?.predictedTokensPerSecond).toBeCloseTo(timings.predicted_per_second, 1)
    // The snapshots pushed while it loaded come first; the 1 Hz ones of the ready server follow.
    await waitUntil(() => snapshots.length >= 2 && snapshots.at(-1)?.server.state === 'ready', 5000, 'a 1 Hz snapshot of the ready server')
    expect(logBatches.flat().some((l) => l.includes('listening on'))).toBe(true)
    expect(Math.max(...logBatches.map((b) => b.length))).toBeGreaterThan(1) // batched, not one push per line

    // Past points are a query (generation:history), not part of every snapshot.
    expect(snapshots.at(-1)?.generation).not.toHaveProperty('history')
    const history = await core.handlers['generation:history']()
    expect(history.requests.map((r) => r.predictedTokens)).toEqual([64])
    expect(history.requests[0]?.predictedTokensPerSecond).toBeCloseTo(timings.predicted_per_second, 1)
    expect(history.perSecond.length).toBeGreaterThan(0) // one point per polled second, 0 while idle

    const active = await core.handlers['profiles:list']()
    expect(active.activeProfileId).toBe(imported.value.id)
    const stopped = await core.handlers['server:stop']()
    expect(stopped.state).toBe('stopped')
    // The last server's history stays readable after it stopped (a window opened later still has its chart).
    await waitUntil(() => core.snapshot().server.state === 'stopped', 5000, 'the stop')
    expect((await core.handlers['generation:history']()).requests).toEqual(history.requests)
  }, 180_000)

  it('paces nvidia-smi and the process scan by what is watched: slow for a ready server nobody watches', async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-core-'))
    const calls: string[] = []
    const telemetry = {
      running: false,
      start: async () => void (telemetry.running = true),
      stop: async () => void (telemetry.running = false),
      latest: () => ({ gpu: null, cpu: null }),
      setServerPid: () => undefined,
      setGpuIntervalMs: (ms: number) => void calls.push(`gpu ${ms}`),
      setWatched: (watched: boolean) => void calls.push(`watched ${watched}`),
    }
    const core = await LlamaTrayCore.create({ home, telemetry, supervisor: { healthIntervalMs: 20 } })
    cores.push({ core, home })
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1']),
      'tiny',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const started = await core.handlers['server:start'](imported.value.id)
    expect(started.ok && started.value.state).toBe('ready')
    expect(calls.filter((c) => c.startsWith('gpu')).at(-1)).toBe(`gpu ${IDLE_TICK_MS}`)
    expect(calls.filter((c) => c.startsWith('watched')).at(-1)).toBe('watched false')
    await core.handlers['dashboard:visible'](true)
    expect(calls.slice(-2)).toEqual(['gpu 1000', 'watched true'])
    await core.handlers['dashboard:visible'](false)
    expect(calls.slice(-2)).toEqual([`gpu ${IDLE_TICK_MS}`, 'watched false'])
  }, 180_000)

  it("ticks on each line of nvidia-smi's stream while idle and unwatched, and on its own clock when watched", async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-core-'))
    let samples = 0
    let fresh: () => void = () => undefined
    const gpu = { available: true, reason: null, backend: 'nvidia-smi' as const, stale: false, sampledAt: 0, devices: [] }
    const telemetry = {
      running: false,
      start: async () => void (telemetry.running = true),
      stop: async () => void (telemetry.running = false),
      latest: () => ({ gpu, cpu: null }),
      sample: () => (samples++, { gpu, cpu: null }),
      setServerPid: () => undefined,
      onGpuFresh: (listener: () => void) => ((fresh = listener), () => undefined),
    }
    const core = await LlamaTrayCore.create({ home, telemetry, supervisor: { healthIntervalMs: 20 } })
    cores.push({ core, home })
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1']),
      'tiny',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const readyTick = new Promise<void>((resolve) => core.on('snapshot', (s) => s.server.state === 'ready' && resolve()))
    const started = await core.handlers['server:start'](imported.value.id)
    expect(started.ok && started.value.state).toBe('ready')
    await readyTick
    await new Promise((r) => setImmediate(r)) // the tick's clock is armed again after its listeners
    // Idle and unwatched: the backstop timer (10 s) waits; each line of the stream is one tick, at once.
    for (let line = 1; line <= 3; line++) {
      const before = samples
      fresh()
      expect(samples).toBe(before + 1)
    }
    await core.handlers['dashboard:visible'](true)
    const before = samples
    fresh() // watched: the 1 s clock ticks, a line does not
    expect(samples).toBe(before)
  }, 180_000)

  it("hurries for a pending warning while idle and unwatched: its samples at the usual pace, then back to nvidia-smi's lines", async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-core-'))
    let samples = 0
    let pending = false
    const periods: number[] = []
    let fresh: () => void = () => undefined
    const gpu = { available: true, reason: null, backend: 'nvidia-smi' as const, stale: false, sampledAt: 0, devices: [] }
    const telemetry = {
      running: false,
      start: async () => void (telemetry.running = true),
      stop: async () => void (telemetry.running = false),
      latest: () => ({ gpu, cpu: null }),
      sample: () => (samples++, { gpu, cpu: null }),
      setServerPid: () => undefined,
      setGpuIntervalMs: (ms: number) => void periods.push(ms),
      onGpuFresh: (listener: () => void) => ((fresh = listener), () => undefined),
    }
    const core = await LlamaTrayCore.create({ home, telemetry, warningsPending: () => pending, supervisor: { healthIntervalMs: 20 } })
    cores.push({ core, home })
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1']),
      'tiny',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const readyTick = new Promise<void>((resolve) => core.on('snapshot', (s) => s.server.state === 'ready' && resolve()))
    const started = await core.handlers['server:start'](imported.value.id)
    expect(started.ok && started.value.state).toBe('ready')
    await readyTick
    await new Promise((r) => setImmediate(r))
    expect(periods.at(-1)).toBe(IDLE_TICK_MS)
    // A line brings a warning's first sample: the stream and the clock go to the usual pace (1 s).
    pending = true
    fresh()
    expect(periods.at(-1)).toBe(1000)
    const hurried = samples
    fresh() // the 1 s clock ticks now, not the stream's lines
    expect(samples).toBe(hurried)
    await waitUntil(() => samples >= hurried + 2, 30_000, 'two ticks of the 1 s clock')
    // Raised (or gone): back to the idle stream, whose lines tick the core again.
    pending = false
    await waitUntil(() => periods.at(-1) === IDLE_TICK_MS, 30_000, "nvidia-smi's idle period again")
    await new Promise((r) => setImmediate(r))
    const idle = samples
    fresh()
    expect(samples).toBe(idle + 1)
  }, 180_000)

  it('reads the GPU energy counter only to start its meter and around requests, not at idle ticks', async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-core-'))
    const asked: boolean[] = []
    let fresh: () => void = () => undefined
    let counterMJ = 1_000_000
    const device = (energy: boolean): GpuDevice => ({
      index: 0,
      name: 'NVIDIA H100 80GB HBM3',
      memoryTotalMiB: 81_559,
      memoryUsedMiB: 20_865,
      memoryFreeMiB: 60_214,
      memoryReservedMiB: 480,
      temperatureC: 36,
      utilizationPct: 0,
      powerW: 70,
      powerLimitW: 700,
      smClockMHz: 1980,
      pstate: 'P0',
      throttleReasons: [],
      ...(energy ? { energyMJ: (counterMJ += 50_000) } : {}),
    })
    let gpu: GpuSnapshot = { available: true, reason: null, backend: 'nvidia-smi', stale: false, sampledAt: 0, devices: [device(false)] }
    const telemetry = {
      running: false,
      start: async () => void (telemetry.running = true),
      stop: async () => void (telemetry.running = false),
      latest: () => ({ gpu, cpu: null }),
      sample: (options?: { energy?: boolean }) => {
        asked.push(options?.energy ?? true)
        gpu = { ...gpu, devices: [device(options?.energy ?? true)] }
        return { gpu, cpu: null }
      },
      setServerPid: () => undefined,
      onGpuFresh: (listener: () => void) => ((fresh = listener), () => undefined),
    }
    const core = await LlamaTrayCore.create({ home, telemetry, supervisor: { healthIntervalMs: 20 } })
    cores.push({ core, home })
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1']),
      'tiny',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const readyTick = new Promise<void>((resolve) => core.on('snapshot', (s) => s.server.state === 'ready' && resolve()))
    const started = await core.handlers['server:start'](imported.value.id)
    expect(started.ok && started.value.state).toBe('ready')
    await readyTick
    await new Promise((r) => setImmediate(r))
    // The first sample started the meter; idle ticks (one per line of the stream here) leave the counter alone.
    expect(asked[0]).toBe(true)
    const idleFrom = asked.length
    for (let line = 0; line < 3; line++) fresh()
    expect(asked.slice(idleFrom)).toEqual([false, false, false])
    // A request's energy (the endpoint's, a bench's) reads it at once and spans the samples around the request.
    const from = Date.now() - 1
    const joules = core.energyJ(from, Date.now())
    expect(asked.at(-1)).toBe(true)
    expect(joules).not.toBeNull()
  }, 180_000)

  it('a start of an unknown or failing profile is a Result error, not an exception', async () => {
    const { core } = await makeCore()
    expect(await core.handlers['server:start']('nope')).toMatchObject({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/^No profile "nope"/) }),
    })
    const imported = await core.handlers['profiles:import'](formatCommandLine([bin, '-m', '/nonexistent/model.gguf']), 'broken', {
      force: true,
    })
    expect(imported.ok).toBe(true)
    if (!imported.ok) return
    const started = await core.handlers['server:start'](imported.value.id)
    expect(started).toMatchObject({ ok: false })
    expect(core.server.getStatus().lastExit?.kind).toBe('model-missing')
  }, 120_000)

  it('edits, duplicates, deletes with undo, exports, and refuses bad edits', async () => {
    const { core } = await makeCore()
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '--n-cpu-moe', '4']),
      'edit me',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    const updated = await core.handlers['profiles:update'](id, { settings: { nCpuMoe: 6, ctxSize: 8192 }, notes: 'tuned' })
    expect(updated.ok).toBe(true)
    expect((await core.handlers['profiles:get'](id))?.settings).toMatchObject({ nCpuMoe: 6, ctxSize: 8192 })
    expect(await core.handlers['profiles:update'](id, { settings: { nCpuMoe: 'six' } } as never)).toMatchObject({ ok: false })
    expect(await core.handlers['profiles:update'](id, { binary: '/bin/sh' } as never)).toMatchObject({ ok: false })
    const exported = await core.handlers['profiles:export'](id, 'bash')
    expect(exported.ok && exported.value).toMatch(/--n-cpu-moe 6/)
    // The raw command, edited and applied: the profile runs the new one, keeps its id, name and notes.
    const rawCommand = (exported.ok ? exported.value : '').replace('--n-cpu-moe 6', '--n-cpu-moe 9')
    // A flag this binary rejects with no same-meaning spelling (ik_llama's -vhad) is refused with the reason; nothing changes.
    const refused = await core.handlers['profiles:set-command'](id, `${rawCommand} -vhad`)
    expect(refused).toMatchObject({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/^The profile was not saved: .* rejects -vhad .*\.$/) }),
    })
    expect((await core.handlers['profiles:get'](id))?.settings).toMatchObject({ nCpuMoe: 6 })
    // One it spells differently is written its way, and the user is told once.
    const edited = await core.handlers['profiles:set-command'](id, `${rawCommand} --no-mmap`)
    expect(edited).toMatchObject({
      ok: true,
      value: { id, name: 'edit me', notices: [expect.stringMatching(/^The flag --no-mmap was written as -lm none, /)] },
    })
    const after = await core.handlers['profiles:get'](id)
    expect(after).toMatchObject({ notes: 'tuned', settings: { nCpuMoe: 9, ctxSize: 8192, loadMode: 'none' } })
    // A command that cannot be read changes nothing and says why.
    expect(await core.handlers['profiles:set-command'](id, `${bin} -m "unterminated`)).toMatchObject({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/^Cannot read the command/) }),
    })
    expect((await core.handlers['profiles:get'](id))?.settings).toMatchObject({ nCpuMoe: 9 })
    expect(await core.handlers['profiles:set-command']('no-such-profile', `${bin} -m x.gguf`)).toMatchObject({ ok: false })
    const copy = await core.handlers['profiles:duplicate'](id)
    expect(copy.ok && copy.value.name).toBe('edit me (copy)')
    expect((await core.handlers['profiles:delete'](id)).ok).toBe(true)
    expect((await core.handlers['profiles:list']()).profiles.map((p) => p.id)).not.toContain(id)
    expect((await core.handlers['profiles:undo-delete'](id)).ok).toBe(true)
    expect((await core.handlers['profiles:list']()).profiles.map((p) => p.id)).toContain(id)
  })

  it('validates and persists settings', async () => {
    const { core, home } = await makeCore()
    expect(await core.handlers['settings:set']({ vramHeadroomMiB: 2048 })).toMatchObject({ ok: true, value: { vramHeadroomMiB: 2048 } })
    expect(await core.handlers['settings:set']({ vramHeadroomMiB: -1 })).toMatchObject({ ok: false })
    expect(await core.handlers['settings:set']({ bogus: true } as never)).toMatchObject({ ok: false })
    const again = await LlamaTrayCore.create({ home, telemetry: null })
    expect(again.settings.vramHeadroomMiB).toBe(2048)
    await again.dispose()
  })
})

describe('fit:estimate', () => {
  it('estimates a stored profile from its GGUF; a profile without a local model is a Result error', async () => {
    const { core } = await makeCore()
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '8192', '-np', '1', '-t', '1', '--n-cpu-moe', '4']),
      'fit me',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const estimate = await core.handlers['fit:estimate'](imported.value.id)
    expect(estimate.ok).toBe(true)
    if (!estimate.ok) return
    expect(estimate.value.freeVramMiB).toBeNull() // no telemetry in this test: estimate only
    expect(estimate.value.report.nCpuMoe).toBe(4)
    // The same 20 MiB of KV the server reports at -c 8192 (bench: fit), on whichever device the placement puts it.
    expect(estimate.value.report.gpu.kvMiB + estimate.value.report.host.kvMiB).toBeCloseTo(20, 0)
    const hfOnly = await core.handlers['profiles:import'](formatCommandLine([bin, '-hf', 'user/model']), 'remote')
    if (!hfOnly.ok) throw new Error(hfOnly.error.sentence)
    expect(await core.handlers['fit:estimate'](hfOnly.value.id)).toMatchObject({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/no local model/i) }),
    })
  })
})
