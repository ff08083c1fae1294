import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fakeSmiEnv, isAlive, waitFor } from '../../../test/support/telemetry/fake-smi-env'
import { fakeSmiExe } from '../../../test/support/telemetry/paths'
import { findNvidiaSmi, nvidiaSmiCandidates } from './find-nvidia-smi'
import { probeSmiFields } from './smi-probe'

describe('probeSmiFields against the fake nvidia-smi', () => {
  it('keeps the R535+ clocks_event_reasons names on a new driver and returns a first sample', async () => {
    const r = await probeSmiFields(fakeSmiExe, 5000, fakeSmiEnv())
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.fields.map((f) => f.query)).toContain('clocks_event_reasons.active')
    expect(r.devices).toHaveLength(1)
    expect(r.devices[0]).toMatchObject({
      index: 0,
      name: 'NVIDIA H200',
      memoryTotalMiB: 143771,
      memoryReservedMiB: 616,
      powerLimitW: 700,
      throttleReasons: ['gpu_idle'],
    })
  })

  it('falls back to clocks_throttle_reasons on an older driver', async () => {
    const r = await probeSmiFields(fakeSmiExe, 5000, fakeSmiEnv('old-driver'))
    expect(r.ok && r.fields.map((f) => f.query)).toContain('clocks_throttle_reasons.active')
    expect(r.ok && r.devices[0]?.throttleReasons).toEqual(['gpu_idle'])
  })

  it('reports every GPU', async () => {
    const r = await probeSmiFields(fakeSmiExe, 5000, fakeSmiEnv('gpus=3'))
    expect(r.ok && r.devices.map((d) => d.index)).toEqual([0, 1, 2])
  })

  it('explains a missing driver, a hang and a missing program instead of throwing', async () => {
    const noDriver = await probeSmiFields(fakeSmiExe, 5000, fakeSmiEnv('no-driver'))
    expect(noDriver).toMatchObject({ ok: false, reason: expect.stringContaining("couldn't communicate with the NVIDIA driver") })
    const hang = await probeSmiFields(fakeSmiExe, 300, fakeSmiEnv('hang'))
    expect(hang).toMatchObject({ ok: false, reason: 'nvidia-smi did not answer within 0.3 s; the driver may be stuck.' })
    const missing = await probeSmiFields('/nonexistent/nvidia-smi', 1000)
    expect(missing).toMatchObject({ ok: false, reason: expect.stringContaining('ENOENT') })
  })
})

describe('probeSmiFields against a hung nvidia-smi whose grandchild holds stdout', () => {
  it('answers at the timeout with one sentence and leaves neither process behind', async () => {
    const pidDir = mkdtempSync(path.join(tmpdir(), 'fake-smi-pids-'))
    try {
      // The fake would hang for 10 minutes; a probe that waited for its stdout to close would wait as long.
      const env = fakeSmiEnv('hang,grandchild', { FAKE_SMI_PID_DIR: pidDir, FAKE_SMI_HANG_MAX_MS: '600000' })
      let r = await probeSmiFields(fakeSmiExe, 2000, env)
      // On a loaded machine the fake may not have started its grandchild within 2 s: then ask again, longer.
      if (!readdirSync(pidDir).some((f) => f.startsWith('grandchild-'))) r = await probeSmiFields(fakeSmiExe, 30_000, env)
      const sentence = /^nvidia-smi did not answer within (2|30) s; the driver may be stuck\.$/
      expect(r).toEqual({ ok: false, reason: expect.stringMatching(sentence) })
      const pids = readdirSync(pidDir).map((f) => Number(f.replace('grandchild-', '')))
      expect(readdirSync(pidDir).filter((f) => f.startsWith('grandchild-')).length).toBeGreaterThanOrEqual(1)
      expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 20_000)).toBe(true)
    } finally {
      rmSync(pidDir, { recursive: true, force: true })
    }
  }, 120_000)
})

describe('finding nvidia-smi', () => {
  it('finds the fake first on PATH', () => {
    expect(findNvidiaSmi({ platform: 'linux', env: fakeSmiEnv(), isExecutable: (f) => f === fakeSmiExe })).toBe(fakeSmiExe)
    expect(findNvidiaSmi({ platform: 'linux', env: { PATH: '/nope' }, isExecutable: () => false })).toBeNull()
  })

  it('tries PATH, then System32, then NVSMI on Windows', () => {
    const env = { Path: 'C:\\Tools;"C:\\Quoted Dir"', SystemRoot: 'C:\\WINDOWS', ProgramFiles: 'D:\\Program Files' }
    expect(nvidiaSmiCandidates({ platform: 'win32', env })).toEqual([
      'C:\\Tools\\nvidia-smi.exe',
      'C:\\Quoted Dir\\nvidia-smi.exe',
      'C:\\WINDOWS\\System32\\nvidia-smi.exe',
      'D:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe',
    ])
  })
})
