import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GpuDevice } from '../../contract/telemetry'
import { fakeSmiEnv, isAlive, waitFor } from '../../../test/support/telemetry/fake-smi-env'
import { fakeSmiExe } from '../../../test/support/telemetry/paths'
import { SMI_FIELDS } from './smi-fields'
import { SmiSampler, type SmiSamplerOptions } from './smi-sampler'
import { EnergyMeter } from './energy-meter'

const samplers: SmiSampler[] = []
afterEach(async () => {
  await Promise.all(samplers.splice(0).map((s) => s.stop()))
})

/** A sampler on the fake, recording every pid it spawned and checking that no two were alive at once. */
function sampler(faults: string, options: Partial<SmiSamplerOptions> = {}) {
  const s = new SmiSampler({
    exe: fakeSmiExe,
    fields: SMI_FIELDS,
    intervalMs: 100,
    watchdogIntervals: 20,
    backoffInitialMs: 50,
    backoffMaxMs: 200,
    killGraceMs: 300,
    env: fakeSmiEnv(faults),
    ...options,
  })
  samplers.push(s)
  const pids: number[] = []
  const overlaps: number[] = []
  const samples: GpuDevice[] = []
  s.on('spawn', (pid) => {
    overlaps.push(...pids.filter(isAlive))
    pids.push(pid)
  })
  s.on('sample', (d) => samples.push(d))
  return { s, pids, overlaps, samples }
}

describe('SmiSampler with the fake nvidia-smi', () => {
  it('streams the replayed capture from one child and stops it', async () => {
    const { s, pids, samples } = sampler('')
    s.start()
    expect(await waitFor(() => samples.length >= 5, 10_000)).toBe(true)
    expect(pids).toHaveLength(1)
    expect(s.latest()).toMatchObject({ stale: false, reason: null, devices: [{ index: 0, name: 'NVIDIA H200', memoryTotalMiB: 143771 }] })
    expect(new Set(samples.map((d) => d.powerW)).size).toBeGreaterThan(1) // the replay moves on
    await s.stop()
    expect(isAlive(pids[0]!)).toBe(false)
  })

  it('asks for power.draw.average and, where the replayed H200 capture has none ([N/A]), feeds power.draw to the energy meter', async () => {
    const { s, samples } = sampler('')
    s.start()
    expect(await waitFor(() => samples.length >= 6, 10_000)).toBe(true)
    await s.stop()
    // No NVML here, so no counter: the meter integrates the samples' power (placed 100 ms apart, the sampler's period).
    const meter = new EnergyMeter()
    const used = samples.slice(0, 6)
    used.forEach((d, i) => meter.record(i * 100, d))
    expect(used.every((d) => d.energyMJ === undefined && typeof d.powerW === 'number')).toBe(true)
    let expected = 0
    for (let i = 1; i < used.length; i++) expected += (((used[i - 1]!.powerW as number) + (used[i]!.powerW as number)) / 2) * 0.1
    expect(meter.between(0, 500)).toBeCloseTo(expected, 6)
  })

  it('a new period replaces the child with one asking for it (-lms), one alive at a time, and samples go on', async () => {
    const { s, pids, overlaps, samples } = sampler('')
    s.start()
    expect(await waitFor(() => samples.length >= 2, 10_000)).toBe(true)
    await s.setIntervalMs(300)
    expect(s.interval).toBe(300)
    const seen = samples.length
    expect(await waitFor(() => samples.length >= seen + 2, 10_000)).toBe(true)
    expect(pids).toHaveLength(2)
    expect(overlaps).toEqual([])
    expect(isAlive(pids[0]!)).toBe(false)
    const args = readFileSync(`/proc/${pids[1]}/cmdline`, 'utf8').split('\0')
    expect(args.slice(args.indexOf('-lms'), args.indexOf('-lms') + 2)).toEqual(['-lms', '300'])
    expect(s.latest()).toMatchObject({ stale: false, reason: null })
    await s.setIntervalMs(300) // the same period: the child stays
    expect(pids).toHaveLength(2)
  })

  it('a stopped sampler takes a new period without starting a child, and uses it at its next start', async () => {
    const { s, pids, samples } = sampler('')
    await s.setIntervalMs(250)
    expect(pids).toEqual([])
    s.start()
    expect(await waitFor(() => samples.length >= 1, 10_000)).toBe(true)
    const args = readFileSync(`/proc/${pids[0]}/cmdline`, 'utf8').split('\0')
    expect(args[args.indexOf('-lms') + 1]).toBe('250')
  })

  it('reads lines split across writes and skips garbage without losing samples', async () => {
    const partial = sampler('partial')
    const garbage = sampler('garbage,gpus=2')
    partial.s.start()
    garbage.s.start()
    expect(await waitFor(() => partial.samples.length >= 4 && garbage.samples.length >= 4, 10_000)).toBe(true)
    expect(partial.s.stats.linesSkipped).toBe(0)
    expect(garbage.s.stats.linesSkipped).toBeGreaterThan(0)
    expect(garbage.s.latest().devices.map((d) => d.index)).toEqual([0, 1])
    expect([...partial.samples, ...garbage.samples].every((d) => d.memoryTotalMiB === 143771)).toBe(true)
  })

  it('restarts a child that dies, with at most one alive, and marks the data stale meanwhile', async () => {
    const { s, pids, overlaps, samples } = sampler('die-after=2,partial', { backoffInitialMs: 400, backoffMaxMs: 400 })
    let sawStale = false
    s.on('exit', () => {
      const r = s.latest()
      sawStale ||= r.stale && /exited \(code 1\): fake nvidia-smi: dying as asked/.test(r.reason ?? '')
    })
    s.start()
    expect(await waitFor(() => pids.length >= 3, 10_000)).toBe(true)
    expect(overlaps).toEqual([])
    expect(sawStale).toBe(true)
    expect(samples.length).toBeGreaterThanOrEqual(4)
  })

  it('kills a child that stops printing (watchdog) and respawns it', async () => {
    const { s, pids, overlaps } = sampler('hang-after=1', { watchdogIntervals: 3 })
    const atExit: string[] = []
    s.on('exit', (_code, signal) => {
      const r = s.latest()
      if (r.stale && signal === 'SIGKILL') atExit.push(r.reason ?? '')
    })
    s.start()
    expect(await waitFor(() => s.stats.watchdogKills >= 2 && pids.length >= 3, 10_000)).toBe(true)
    expect(overlaps).toEqual([])
    expect(atExit[0]).toBe('nvidia-smi printed nothing for 300 ms; restarting it')
  })

  it('says in one sentence that a child printing only unreadable lines printed nothing readable, and restarts it', async () => {
    // The start-up grace lets a slow Node start print before the watchdog's first look.
    const { s, pids, overlaps, samples } = sampler('lost-gpu', { watchdogIntervals: 3, startupGraceMs: 1000 })
    const atExit: string[] = []
    s.on('exit', () => atExit.push(s.latest().reason ?? ''))
    s.start()
    const unreadable = (): string | undefined => atExit.find((r) => r.includes('unreadable'))
    expect(await waitFor(() => unreadable() !== undefined && pids.length >= 2, 30_000)).toBe(true)
    expect(overlaps).toEqual([])
    expect(samples).toEqual([])
    const lastLine = 'Unable to determine the device handle for GPU0000:00:06.0: Unknown Error'
    expect(unreadable()).toMatch(
      /^nvidia-smi printed nothing readable for 1000 ms \(\d+ unreadable lines, the last: "(.*)"\); restarting it$/,
    )
    expect(/the last: "(.*)"\)/.exec(unreadable() ?? '')?.[1]).toBe(lastLine)
  })

  it('survives a child that hangs from the start and ignores SIGTERM, and stop() still ends it', async () => {
    const { s, pids, overlaps } = sampler('hang', { watchdogIntervals: 3, startupGraceMs: 300 })
    s.start()
    expect(await waitFor(() => pids.length >= 2, 10_000)).toBe(true)
    await s.stop()
    expect(overlaps).toEqual([])
    expect(pids.filter(isAlive)).toEqual([])
    expect(s.latest()).toMatchObject({ stale: true, devices: [] })
  })

  it('kills a hung child together with the grandchild holding its stdout, respawns, and stop() leaves nothing', async () => {
    const pidDir = mkdtempSync(path.join(tmpdir(), 'fake-smi-pids-'))
    try {
      // The grandchild would live 10 minutes: waiting for the pipe to close would stall the restart and stop() that long.
      const { s, pids, overlaps, samples } = sampler('hang-after=2,grandchild', {
        watchdogIntervals: 3,
        env: fakeSmiEnv('hang-after=2,grandchild', { FAKE_SMI_PID_DIR: pidDir, FAKE_SMI_HANG_MAX_MS: '600000' }),
      })
      const grandchildren = (): number[] =>
        readdirSync(pidDir)
          .filter((f) => f.startsWith('grandchild-'))
          .map((f) => Number(f.slice('grandchild-'.length)))
      s.start()
      expect(await waitFor(() => s.stats.watchdogKills >= 2 && pids.length >= 3, 60_000)).toBe(true)
      expect(overlaps).toEqual([])
      expect(samples.length).toBeGreaterThan(0)
      await s.stop()
      const left = [...pids, ...grandchildren()]
      expect(grandchildren().length).toBeGreaterThanOrEqual(2)
      expect(await waitFor(() => left.every((pid) => !isAlive(pid)), 20_000)).toBe(true)
    } finally {
      rmSync(pidDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('backs off when nvidia-smi cannot be started at all', async () => {
    const { s } = sampler('', { exe: '/nonexistent/nvidia-smi', backoffInitialMs: 100, backoffMaxMs: 10_000 })
    const started = performance.now()
    s.start()
    expect(await waitFor(() => s.stats.spawns >= 3, 10_000)).toBe(true)
    // Backoff timers never fire early: the third try comes at least 100 + 200 ms after the first, not one per interval.
    expect(performance.now() - started).toBeGreaterThanOrEqual(295)
    expect(s.latest()).toMatchObject({ stale: true, reason: expect.stringContaining('could not start') })
  })
})
