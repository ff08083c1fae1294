import { describe, expect, it } from 'vitest'
import type { EngineInstallPlan } from '../../../app/contract/engines'
import type { DiscoveredModel, Discovery } from '../../../app/contract/profile'
import { backendReason, downloadText, formatBytes, installLabel, installPhaseText, missingForFirstRun } from './first-run'

const plan: EngineInstallPlan = {
  id: 'v0.5.0-cuda-12',
  tag: 'v0.5.0',
  backend: 'cuda-12',
  gpuName: 'NVIDIA GeForce RTX 4060 Laptop GPU',
  driverCuda: '12.8',
  assets: [],
  downloadBytes: 573_000_000,
  installed: false,
}
const model = (problem: string | null): DiscoveredModel => ({
  id: 'm-0000000000',
  path: '/m.gguf',
  fileMiB: 10,
  architecture: null,
  quantisation: null,
  layers: null,
  experts: null,
  trainingContext: null,
  looksLikeDraft: false,
  source: 'x',
  problem,
})
const found = (binaries: number, models: DiscoveredModel[]): Discovery => ({
  binaries: Array.from({ length: binaries }, (_, i) => ({ id: `b-${i}`, path: '/b', fork: null, version: null, source: 'PATH' })),
  models,
  searched: [],
})

describe('first-run texts', () => {
  it('is needed without a binary or without a readable model', () => {
    expect(missingForFirstRun(found(0, [model(null)]))).toEqual({ engine: true, model: false })
    expect(missingForFirstRun(found(1, [model('not a GGUF file')]))).toEqual({ engine: false, model: true })
    expect(missingForFirstRun(found(1, [model(null)]))).toEqual({ engine: false, model: false })
  })

  it('names the build, its size and the GPU that chose it', () => {
    expect(installLabel(null)).toBe('Install llama.cpp')
    expect(installLabel(plan)).toBe('Install llama.cpp (CUDA 12, ~573 MB)')
    expect(installLabel({ ...plan, backend: 'cpu', downloadBytes: 24_310_000 })).toBe('Install llama.cpp (CPU, ~24.3 MB)')
    expect(backendReason(plan)).toBe('NVIDIA GeForce RTX 4060 Laptop GPU (driver CUDA 12.8): llama.cpp v0.5.0, the CUDA 12 build.')
    expect(backendReason({ ...plan, gpuName: null, driverCuda: null, backend: 'vulkan' })).toBe(
      'No NVIDIA GPU found: llama.cpp v0.5.0, the Vulkan build.',
    )
  })

  it('sizes and rates in decimal units, as downloads are shown elsewhere', () => {
    expect(formatBytes(1_234_567_890)).toBe('1.2 GB')
    expect(formatBytes(5_100_000)).toBe('5.1 MB')
    expect(formatBytes(900)).toBe('1 kB')
    expect(downloadText({ bytes: 12_300_000, total: 24_000_000, rateBps: 5_100_000 })).toBe('12.3 MB of 24.0 MB · 5.1 MB/s')
    expect(downloadText({ bytes: 12_300_000, total: null, rateBps: null })).toBe('12.3 MB')
    expect(downloadText({ bytes: null, total: null, rateBps: null })).toBe('')
  })

  it('says what each phase does', () => {
    expect(
      installPhaseText({ phase: 'download', asset: 'llama-v0.5.0-bin-win-cuda-12.4-x64.zip', bytes: 0, total: 1, rateBps: null }),
    ).toBe('Downloading llama-v0.5.0-bin-win-cuda-12.4-x64.zip')
    expect(installPhaseText({ phase: 'verify', asset: null, bytes: null, total: null, rateBps: null })).toMatch(/runs on this machine/)
  })
})
