import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openNvml } from './nvml'
import { NvmlGpuProcesses } from './nvml-gpu-processes'
import { nvmlLibraryCandidates } from './nvml-paths'

const source = fileURLToPath(new URL('./nvml-fake/fake-libnvidia-ml.c', import.meta.url))
let dir = ''
const lib = (variant: string): string => path.join(dir, `libnvidia-ml-${variant}.so.1`)

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'fake-nvml-'))
  const variants: Record<string, string[]> = {
    full: [],
    noinit: ['-DNO_INIT'],
    old: ['-DNO_MEMORY_V2', '-DNO_EVENT_REASONS', '-DNO_POWER', '-DNO_PROCESSES'],
  }
  for (const [name, defines] of Object.entries(variants))
    execFileSync('gcc', ['-shared', '-fPIC', '-O2', ...defines, '-o', lib(name), source])
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => {
  delete process.env.FAKE_NVML_INIT_ERROR
  delete process.env.FAKE_NVML_TEMP_ERROR
  delete process.env.FAKE_NVML_COUNT
  delete process.env.FAKE_NVML_ENERGY_ERROR
  delete process.env.FAKE_NVML_PROCS
})

describe('NVML through koffi, against a fake libnvidia-ml built from C', () => {
  it('reads every figure, with the v2 memory struct and the clock-event reasons', () => {
    process.env.FAKE_NVML_COUNT = '2'
    const r = openNvml([lib('full')])
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const devices = r.nvml.sample()
    expect(devices).toEqual(
      [0, 1].map((index) => ({
        index,
        name: 'NVIDIA H200',
        energyMJ: expect.any(Number),
        memoryTotalMiB: 143771,
        memoryUsedMiB: 102927,
        memoryFreeMiB: 40228,
        memoryReservedMiB: 616,
        temperatureC: 36 + index,
        utilizationPct: 97,
        powerW: 612.345,
        powerLimitW: 700,
        smClockMHz: 1980,
        pstate: 'P0',
        throttleReasons: ['sw_power_cap', 'sw_thermal_slowdown'],
      })),
    )
    expect(r.nvml.inventory()).toEqual({ driverVersion: '580.159.04', cudaVersion: '13.0' })
    r.nvml.close()
  })

  it('turns an error code from one call into null for that figure only', () => {
    const r = openNvml([lib('full')])
    if (!r.ok) throw new Error(r.reason)
    process.env.FAKE_NVML_TEMP_ERROR = '3' // NVML_ERROR_NOT_SUPPORTED
    const [d] = r.nvml.sample()
    expect(d).toMatchObject({ temperatureC: null, memoryTotalMiB: 143771, smClockMHz: 1980 })
    expect(r.nvml.describeError(3)).toBe('NVML error 3 (Not Supported)')
  })

  it('reads the total-energy counter as it moves, and stops asking once a device says it does not count', () => {
    const r = openNvml([lib('full')])
    if (!r.ok) throw new Error(r.reason)
    const first = r.nvml.sample()[0]?.energyMJ ?? 0
    const second = r.nvml.sample()[0]?.energyMJ ?? 0
    expect(second - first).toBe(612345)
    r.nvml.close()
    const unsupported = openNvml([lib('full')])
    if (!unsupported.ok) throw new Error(unsupported.reason)
    process.env.FAKE_NVML_ENERGY_ERROR = '3'
    expect(unsupported.nvml.sample()[0]?.energyMJ).toBeNull()
    delete process.env.FAKE_NVML_ENERGY_ERROR // it would count now, but the probe said no: it is not asked again
    expect(unsupported.nvml.sample()[0]?.energyMJ).toBeNull()
    expect(unsupported.nvml.sample()[0]?.powerW).toBe(612.345)
  })

  it('leaves the energy counter alone when a read does not ask for it', () => {
    const r = openNvml([lib('full')])
    if (!r.ok) throw new Error(r.reason)
    const first = r.nvml.sample()[0]?.energyMJ ?? 0
    const idle = r.nvml.sample({ energy: false })[0]
    expect(idle).not.toHaveProperty('energyMJ')
    expect(idle?.powerW).toBe(612.345)
    // The fake's counter moves once per call: one call since the first read, not two.
    expect((r.nvml.sample()[0]?.energyMJ ?? 0) - first).toBe(612345)
    r.nvml.close()
  })

  it('falls back to the older symbols and leaves missing ones null', () => {
    const r = openNvml([lib('old')])
    if (!r.ok) throw new Error(r.reason)
    expect(r.nvml.sample()[0]).toMatchObject({
      memoryTotalMiB: 143771,
      memoryUsedMiB: 103543,
      memoryReservedMiB: null,
      powerW: null,
      powerLimitW: null,
      energyMJ: null,
      throttleReasons: ['gpu_idle'],
    })
  })

  it('reports a missing library, a missing required symbol and an init error, and tries the next candidate', () => {
    const missing = openNvml([path.join(dir, 'nope.so.1')])
    expect(missing).toMatchObject({ ok: false, reason: expect.stringContaining('nope.so.1') })
    const noInit = openNvml([lib('noinit')])
    expect(noInit).toMatchObject({ ok: false, reason: expect.stringContaining('nvmlInit_v2') })
    process.env.FAKE_NVML_INIT_ERROR = '9'
    const driver = openNvml([lib('full')])
    expect(driver).toMatchObject({ ok: false, reason: expect.stringContaining('NVML error 9 (Driver Not Loaded)') })
    delete process.env.FAKE_NVML_INIT_ERROR
    const next = openNvml([path.join(dir, 'nope.so.1'), lib('full')])
    expect(next.ok && next.nvml.libraryPath).toBe(lib('full'))
  })

  it('lists the running processes of both lists once each, their memory null where NVML says "not available"', () => {
    process.env.FAKE_NVML_COUNT = '2'
    const r = openNvml([lib('full')])
    if (!r.ok) throw new Error(r.reason)
    expect(r.nvml.runningProcesses()).toEqual([
      { pid: 4242, usedMiB: 5120 },
      { pid: 77, usedMiB: 300 },
      { pid: 900, usedMiB: null },
    ])
    process.env.FAKE_NVML_PROCS = '0'
    expect(r.nvml.runningProcesses()).toEqual([])
    const old = openNvml([lib('old')])
    if (!old.ok) throw new Error(old.reason)
    expect(old.nvml.runningProcesses()).toBeNull() // no _v3 calls: the caller falls back to nvidia-smi
  })

  it('NvmlGpuProcesses opens NVML for each read only, and says why when neither NVML nor nvidia-smi can list', async () => {
    const telemetry = openNvml([lib('full')])
    if (!telemetry.ok) throw new Error(telemetry.reason)
    const source = new NvmlGpuProcesses({ nvmlLibraries: [lib('full')], smiExe: null })
    expect((await source.read())?.map((p) => [p.pid, p.dedicatedMiB])).toEqual([
      [4242, 5120],
      [77, 300],
      [900, null],
    ])
    expect(telemetry.nvml.sample()[0]?.memoryTotalMiB).toBe(143771) // its shutdown left the telemetry's NVML open
    const old = new NvmlGpuProcesses({ nvmlLibraries: [lib('old')], smiExe: null })
    expect(await old.read()).toBeNull()
    expect(old.problem).toBe('this NVML has no running-process calls; nvidia-smi not found')
  })

  it('looks in System32 first on Windows', () => {
    expect(nvmlLibraryCandidates('win32', { SystemRoot: 'C:\\Windows' })[0]).toBe('C:\\Windows\\System32\\nvml.dll')
    expect(nvmlLibraryCandidates('linux', {})).toContain('libnvidia-ml.so.1')
    expect(nvmlLibraryCandidates('darwin', {})).toEqual([])
  })
})
