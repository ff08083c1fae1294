import { EventEmitter } from 'node:events'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeSmiDir } from '../../../test/support/telemetry/paths'
import { UsageError } from '../cli-error'
import type { CliContext } from '../command'
import { BROKEN_DRIVER, gpuCommand, NO_DRIVER, parseGpuArgs, runGpu, type GpuSources } from './gpu'

const oldPath = process.env.PATH
afterEach(() => {
  process.env.PATH = oldPath
  delete process.env.FAKE_SMI
})

function context(): { io: CliContext; output: () => string; signals: EventEmitter } {
  const stdout = new PassThrough()
  let text = ''
  stdout.on('data', (d: Buffer) => (text += d.toString()))
  const signals = new EventEmitter()
  return { io: { home: '/tmp', stdout, stderr: new PassThrough(), signals }, output: () => text, signals }
}

describe('llama-tray gpu (fake nvidia-smi on PATH)', () => {
  it('prints the inventory and one sample', async () => {
    process.env.PATH = `${fakeSmiDir}${path.delimiter}${oldPath ?? ''}`
    const { io, output } = context()
    expect(await gpuCommand.run(['--backend', 'nvidia-smi'], io)).toBe(0)
    expect(output()).toMatch(
      new RegExp(
        String.raw`^GPU 0: NVIDIA H200 · 143771 MiB · driver 580\.159\.04 · CUDA 13\.0\nGPU 0 {2}VRAM` +
          String.raw` \d+\/143771 MiB \(free \d+, reserved 616\) · \d+°C .* \[nvidia-smi\]\nprograms on the GPU: none\n$`,
      ),
    )
  })

  it('names the programs on the GPU, largest first (nvidia-smi --query-compute-apps where NVML is missing)', async () => {
    process.env.PATH = `${fakeSmiDir}${path.delimiter}${oldPath ?? ''}`
    process.env.FAKE_SMI_COMPUTE_APPS = '77, /opt/tools/embedder, 300;4242, C:\\Games\\Cyberpunk2077.exe, 5120'
    try {
      const { io, output } = context()
      expect(await gpuCommand.run(['--backend', 'nvidia-smi'], io)).toBe(0)
      expect(output()).toMatch(/\nprograms on the GPU: Cyberpunk2077\.exe 5,120 MiB, embedder 300 MiB\n$/)
      const json = context()
      expect(await gpuCommand.run(['--backend', 'nvidia-smi', '--json'], json.io)).toBe(0)
      expect((JSON.parse(json.output()) as { gpuProcesses: unknown }).gpuProcesses).toEqual({
        available: true,
        processes: [
          { pid: 4242, name: 'Cyberpunk2077.exe', dedicatedMiB: 5120, engine3dPct: null },
          { pid: 77, name: 'embedder', dedicatedMiB: 300, engine3dPct: null },
        ],
      })
    } finally {
      delete process.env.FAKE_SMI_COMPUTE_APPS
    }
  })

  it('--json --watch prints one object per line until Ctrl+C', async () => {
    process.env.PATH = `${fakeSmiDir}${path.delimiter}${oldPath ?? ''}`
    const { io, output, signals } = context()
    const done = gpuCommand.run(['--json', '--watch', '--interval', '100', '--backend', 'nvidia-smi'], io)
    for (const end = Date.now() + 20_000; output().split('\n').filter(Boolean).length < 3 && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 20))
    signals.emit('SIGINT')
    expect(await done).toBe(0)
    const lines = output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { inventory?: unknown; gpu: { available: boolean; devices: { name: string }[] } })
    expect(lines.length).toBeGreaterThanOrEqual(3)
    expect(lines[0]!.inventory).toMatchObject({ driverVersion: '580.159.04' })
    expect(lines.every((l) => l.gpu.available && l.gpu.devices[0]!.name === 'NVIDIA H200')).toBe(true)
  })

  it('exits 1 with the reason when there is no GPU, and refuses a bad backend', async () => {
    process.env.PATH = `${fakeSmiDir}${path.delimiter}${oldPath ?? ''}`
    process.env.FAKE_SMI = 'no-driver'
    const { io, output } = context()
    expect(await gpuCommand.run(['--backend', 'nvidia-smi'], io)).toBe(1)
    // A driver that is there but fails: one sentence with what to do; the tool's words behind --verbose.
    expect(output()).toBe(`${BROKEN_DRIVER}\n`)
    const verbose = context()
    expect(await gpuCommand.run(['--backend', 'nvidia-smi', '--verbose'], verbose.io)).toBe(1)
    expect(verbose.output().split('\n')[0]).toBe(BROKEN_DRIVER)
    expect(verbose.output()).toContain("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver")
    expect(() => parseGpuArgs(['--backend', 'cuda'])).toThrow(UsageError)
  })

  it('without the NVIDIA driver says so in one sentence, and shows where it looked only under --verbose (issue #25)', async () => {
    // Neither nvidia-smi nor the NVML library exists: what a machine without the driver looks like.
    const missing: GpuSources = {
      inventory: { smiExe: '/nonexistent/nvidia-smi' },
      reader: { nvmlLibraries: ['/nonexistent/libnvidia-ml.so.1'], smiExe: null },
    }
    const plain = context()
    expect(await runGpu(parseGpuArgs([]), plain.io, missing)).toBe(1)
    expect(plain.output()).toBe(`${NO_DRIVER}\n`)
    expect(NO_DRIVER).toMatch(/^[A-Z].*\.$/)
    const verbose = context()
    expect(await runGpu(parseGpuArgs(['--verbose']), verbose.io, missing)).toBe(1)
    expect(verbose.output().split('\n')[0]).toBe(NO_DRIVER)
    expect(verbose.output()).toContain('/nonexistent/libnvidia-ml.so.1')
    expect(verbose.output()).toContain('nvidia-smi was not found')
  })
})
