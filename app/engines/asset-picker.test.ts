import { describe, expect, it } from 'vitest'
import { pickAssets } from './asset-picker'
import { backendOrder, chooseBackend } from './backends'
import type { Release } from './releases'

// The asset names of a release as llama.cpp's .github/workflows/release.yml (v0.5.0) writes them.
const TAG = 'v0.5.0'
const names = [
  `llama-${TAG}-bin-win-cpu-x64.zip`,
  `llama-${TAG}-bin-win-cuda-12.4-x64.zip`,
  'cudart-llama-bin-win-cuda-12.4-x64.zip',
  `llama-${TAG}-bin-win-cuda-13.4-x64.zip`,
  'cudart-llama-bin-win-cuda-13.4-x64.zip',
  `llama-${TAG}-bin-win-vulkan-x64.zip`,
  `llama-${TAG}-bin-ubuntu-x64.tar.gz`,
  `llama-${TAG}-bin-ubuntu-vulkan-x64.tar.gz`,
  `llama-${TAG}-bin-ubuntu-cuda-12.8-x64.tar.gz`,
  `cudart-llama-${TAG}-bin-ubuntu-cuda-12.8-x64.tar.gz`,
  `llama-${TAG}-bin-ubuntu-cuda-13.4-x64.tar.gz`,
  `llama-${TAG}-xcframework.zip`,
]
const release: Release = {
  tag: TAG,
  publishedAt: null,
  assets: names.map((name) => ({ name, size: 1, url: `https://example.invalid/${name}`, sha256: '0'.repeat(64) })),
}

describe('chooseBackend (auto)', () => {
  it.each([
    ['13.0', 'win32', 'cuda-13'],
    ['12.9', 'win32', 'cuda-12'],
    ['12.4', 'linux', 'cuda-12'],
    ['11.8', 'win32', 'vulkan'],
    [null, 'win32', 'vulkan'],
    [null, 'linux', 'cpu'],
  ] as const)('driver CUDA %s on %s → %s', (cuda, platform, expected) => {
    expect(chooseBackend('auto', cuda, platform)).toBe(expected)
  })

  it('keeps an explicit choice', () => {
    expect(chooseBackend('cpu', '13.0', 'win32')).toBe('cpu')
  })

  it.each([
    ['13.0', 'win32', ['cuda-13', 'cuda-12', 'vulkan', 'cpu']],
    ['12.6', 'linux', ['cuda-12', 'vulkan', 'cpu']],
    ['11.8', 'linux', ['cpu']],
    [null, 'win32', ['vulkan', 'cpu']],
  ] as const)('falls back, when a build fails the GPU check, from driver CUDA %s on %s in the order %j', (cuda, platform, expected) => {
    expect(backendOrder(cuda, platform)).toEqual(expected)
  })
})

describe('pickAssets', () => {
  it.each([
    ['win32', 'cuda-13', `llama-${TAG}-bin-win-cuda-13.4-x64.zip`, 'cudart-llama-bin-win-cuda-13.4-x64.zip'],
    ['win32', 'cuda-12', `llama-${TAG}-bin-win-cuda-12.4-x64.zip`, 'cudart-llama-bin-win-cuda-12.4-x64.zip'],
    ['win32', 'vulkan', `llama-${TAG}-bin-win-vulkan-x64.zip`, null],
    ['win32', 'cpu', `llama-${TAG}-bin-win-cpu-x64.zip`, null],
    ['linux', 'cpu', `llama-${TAG}-bin-ubuntu-x64.tar.gz`, null],
    ['linux', 'cuda-12', `llama-${TAG}-bin-ubuntu-cuda-12.8-x64.tar.gz`, `cudart-llama-${TAG}-bin-ubuntu-cuda-12.8-x64.tar.gz`],
    ['linux', 'cuda-13', `llama-${TAG}-bin-ubuntu-cuda-13.4-x64.tar.gz`, null],
  ] as const)('%s %s → %s + %s', (platform, backend, engine, cudart) => {
    const picked = pickAssets(release, backend, platform, 'x64')
    expect(picked.engine.asset.name).toBe(engine)
    expect(picked.cudart?.name ?? null).toBe(cudart)
  })

  it('without a build for the platform, lists what the release has for it', () => {
    const linuxOnlyCpu: Release = {
      ...release,
      assets: release.assets.filter((a) => !a.name.includes('ubuntu-cuda') && !a.name.includes('ubuntu-vulkan')),
    }
    expect(() => pickAssets(linuxOnlyCpu, 'cuda-12', 'linux', 'x64')).toThrow(
      `llama.cpp ${TAG} has no CUDA 12 build for Linux x64: it has CPU for Linux x64 (--backend cpu).`,
    )
  })

  it('for a machine the release does not build for at all, lists its files', () => {
    expect(() => pickAssets(release, 'cpu', 'linux', 'arm64')).toThrow(
      /has no CPU build for Linux arm64: it has nothing for Linux arm64; its files: llama-v0\.5\.0-bin-win-cpu-x64\.zip, /,
    )
  })

  it('refuses a Windows CUDA build whose cudart is missing', () => {
    const noCudart: Release = { ...release, assets: release.assets.filter((a) => !a.name.startsWith('cudart-llama-bin-win-cuda-12.4')) }
    expect(() => pickAssets(noCudart, 'cuda-12', 'win32', 'x64')).toThrow(
      /not its CUDA runtime \(cudart-llama-bin-win-cuda-12\.4-x64\.zip\)/,
    )
  })
})
