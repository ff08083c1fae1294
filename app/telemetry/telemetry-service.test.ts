import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeSmiEnv, isAlive, sleep, waitFor } from '../../test/support/telemetry/fake-smi-env'
import { fakeSmiExe } from '../../test/support/telemetry/paths'
import { TelemetryService } from './telemetry-service'

const services: TelemetryService[] = []
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.stop()))
})
function service(...args: ConstructorParameters<typeof TelemetryService>): TelemetryService {
  const s = new TelemetryService(...args)
  services.push(s)
  return s
}

describe('TelemetryService', () => {
  it('falls back from NVML to the long-lived nvidia-smi, samples while started and not after stop', async () => {
    const pidDir = mkdtempSync(path.join(tmpdir(), 'fake-smi-pids-'))
    const s = service({
      intervalMs: 100,
      gpu: { nvmlLibraries: ['/nonexistent/libnvidia-ml.so.1'], smiExe: fakeSmiExe, env: fakeSmiEnv('', { FAKE_SMI_PID_DIR: pidDir }) },
    })
    await s.start()
    expect(await waitFor(() => s.latest().gpu?.available === true, 10_000)).toBe(true)
    const { gpu, cpu } = s.latest()
    expect(gpu).toMatchObject({
      backend: 'nvidia-smi',
      stale: false,
      reason: null,
      devices: [{ name: 'NVIDIA H200', memoryTotalMiB: 143771 }],
    })
    expect(cpu?.ramTotalMiB).toBeGreaterThan(0)
    let samples = 0
    s.on('sample', () => samples++)
    expect(await waitFor(() => samples >= 2, 10_000)).toBe(true)
    await s.stop()
    const after = samples
    await sleep(300)
    expect(samples).toBe(after)
    // the probe's one-shot run and the long-lived child: all gone
    const pids = readdirSync(pidDir).map(Number)
    expect(pids.length).toBeGreaterThanOrEqual(2)
    expect(pids.filter(isAlive)).toEqual([])
    rmSync(pidDir, { recursive: true, force: true })
  })

  it('forced to NVML without NVML, it says why and the CPU side still works', async () => {
    const s = service({ intervalMs: 100, gpuBackend: 'nvml', gpu: { nvmlLibraries: ['/nonexistent/libnvidia-ml.so.1'] } })
    await s.start()
    expect(s.latest().gpu).toMatchObject({
      available: false,
      backend: null,
      reason: expect.stringContaining('/nonexistent/libnvidia-ml.so.1'),
    })
    expect(await waitFor(() => s.latest().cpu?.systemPct !== null, 3000)).toBe(true)
  })

  it('with no NVIDIA GPU at all, reports gpu.available = false with both reasons', async () => {
    const s = service({ intervalMs: 100, gpu: { nvmlLibraries: [], smiExe: fakeSmiExe, env: fakeSmiEnv('no-driver') } })
    await s.start()
    expect(s.latest().gpu).toMatchObject({
      available: false,
      reason: expect.stringMatching(/NVML is not available.*couldn't communicate with the NVIDIA driver/),
    })
  })

  it('stopped while the backend is being chosen, it leaves no nvidia-smi behind', async () => {
    const s = service({ intervalMs: 100, gpuBackend: 'nvidia-smi', gpu: { smiExe: fakeSmiExe, env: fakeSmiEnv() } })
    const starting = s.start()
    await s.stop()
    await starting
    expect(s.running).toBe(false)
    await sleep(300)
    expect(s.latest().gpu).toBeNull()
  })
})
