import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { planInstall } from './install-plan'
import { ENGINE_MANIFEST } from './layout'
import type { Release } from './releases'

// What the first run offers before anything is downloaded: the backend `auto`
// picks from the driver, the archives and their sizes from the release listing.
const TAG = 'v0.5.0'
const sizes: Record<string, number> = {
  [`llama-${TAG}-bin-win-cpu-x64.zip`]: 31_000_000,
  [`llama-${TAG}-bin-win-cuda-12.4-x64.zip`]: 182_000_000,
  'cudart-llama-bin-win-cuda-12.4-x64.zip': 391_000_000,
  [`llama-${TAG}-bin-win-vulkan-x64.zip`]: 45_000_000,
  [`llama-${TAG}-bin-ubuntu-x64.tar.gz`]: 24_000_000,
}
const release: Release = {
  tag: TAG,
  publishedAt: null,
  assets: Object.entries(sizes).map(([name, size]) => ({ name, size, url: `https://example.invalid/${name}`, sha256: '0'.repeat(64) })),
}
const client = { release: async () => release }
const home = mkdtempSync(join(tmpdir(), 'llama-tray-plan-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('planInstall', () => {
  it('auto with a CUDA 12.8 driver on Windows: the CUDA 12.4 build and its runtime, the GPU that decided it', async () => {
    const plan = await planInstall({
      home,
      client,
      backend: 'auto',
      platform: 'win32',
      arch: 'x64',
      driver: async () => ({ cudaVersion: '12.8', gpuName: 'NVIDIA GeForce RTX 4060 Laptop GPU' }),
    })
    expect(plan).toMatchObject({
      id: `${TAG}-cuda-12`,
      backend: 'cuda-12',
      driver: { gpuName: 'NVIDIA GeForce RTX 4060 Laptop GPU' },
      existing: null,
    })
    expect([plan.picked.engine.asset.name, plan.picked.cudart?.name]).toEqual([
      `llama-${TAG}-bin-win-cuda-12.4-x64.zip`,
      'cudart-llama-bin-win-cuda-12.4-x64.zip',
    ])
  })

  it('auto without an NVIDIA driver: Vulkan on Windows, the CPU build on Linux; an explicit backend never asks the driver', async () => {
    expect((await planInstall({ home, client, backend: 'auto', platform: 'win32', arch: 'x64', driver: async () => null })).backend).toBe(
      'vulkan',
    )
    expect((await planInstall({ home, client, backend: 'auto', platform: 'linux', arch: 'x64' })).picked.engine.asset.size).toBe(24_000_000)
    const asked: string[] = []
    const cpu = await planInstall({
      home,
      client,
      backend: 'cpu',
      platform: 'win32',
      arch: 'x64',
      driver: async () => (asked.push('driver'), null),
    })
    expect([cpu.backend, cpu.driver, asked]).toEqual(['cpu', null, []])
  })

  it('knows an engine installed before (its folder has a manifest); a half-installed folder is not one', async () => {
    const dir = join(home, 'engines', `${TAG}-cpu`)
    mkdirSync(dir, { recursive: true })
    expect((await planInstall({ home, client, backend: 'cpu', platform: 'linux', arch: 'x64' })).existing).toBeNull()
    writeFileSync(
      join(dir, ENGINE_MANIFEST),
      JSON.stringify({
        version: 1,
        id: `${TAG}-cpu`,
        tag: TAG,
        backend: 'cpu',
        publishedAt: null,
        binary: 'llama-server',
        engineVersion: '1 (abc)',
        assets: [],
        installedAt: '2026-12-01T00:00:00Z',
      }),
    )
    expect((await planInstall({ home, client, backend: 'cpu', platform: 'linux', arch: 'x64' })).existing).toMatchObject({ tag: TAG })
  })

  it('no build for the platform: the error lists what the release has', async () => {
    await expect(planInstall({ home, client, backend: 'cuda-13', platform: 'win32', arch: 'x64' })).rejects.toThrow(
      /has no CUDA 13 build for Windows x64: it has CPU, CUDA 12, Vulkan/,
    )
  })
})
