import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest'
import { llamaServerBin, llamaServerReleaseFiles } from '../../test/helpers/llama-server-bin'
import { GitHubReleasesStandIn } from '../../test/stand-ins/github-releases'
import { linuxTarGz } from '../../test/stand-ins/release-archives'
import { shippedCheckModel } from './check-model'
import type { DriverCuda } from './driver-cuda'
import { runGpuCheck } from './gpu-check'
import { installEngine } from './install'
import { listInstalled } from './installed'
import { ReleaseClient } from './release-client'

// The real llama-server (the cached test build, CPU only: -DGGML_CUDA=OFF) on the shipped tiny model.
// Asked for one layer on the GPU, as a CUDA build's check asks, it places none: that is a build
// which did not find a GPU it can use, as a CUDA build on a laptop whose driver it does not match.
const TAG = 'b7000'
let gh: GitHubReleasesStandIn
let home: string

beforeAll(async () => {
  const tarball = await linuxTarGz(TAG, llamaServerReleaseFiles())
  gh = await new GitHubReleasesStandIn().start([
    {
      tag: TAG,
      publishedAt: '2026-11-28T12:00:00Z',
      assets: [
        { name: `llama-${TAG}-bin-ubuntu-cuda-12.4-x64.tar.gz`, body: tarball },
        { name: `llama-${TAG}-bin-ubuntu-x64.tar.gz`, body: tarball },
      ],
    },
  ])
}, 900_000)
afterAll(() => gh.close())
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'engines-gpu-check-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

describe('the GPU check on the real llama-server', () => {
  it('passes the CPU build: it loads the shipped model, answers /health and a 4-token completion', async () => {
    const model = shippedCheckModel()
    expect(model).not.toBeNull()
    const r = await runGpuCheck({ binary: llamaServerBin(), backend: 'cpu', model: model as string })
    expect(r.ok, r.ok ? '' : `${r.reason}\n${r.log.slice(-20).join('\n')}`).toBe(true)
  })

  it('fails the same binary checked as a CUDA build: no layer went to a GPU', async () => {
    const r = await runGpuCheck({ binary: llamaServerBin(), backend: 'cuda-12', model: shippedCheckModel() as string })
    expect(r).toMatchObject({ ok: false, reason: 'it put no layer on the GPU, so it found no GPU it can use' })
  })

  it('auto with a CUDA 12 driver: the CUDA build fails, is not installed, the CPU build is, one sentence names both', async () => {
    const gpuName = 'NVIDIA GeForce RTX 4060 Laptop GPU'
    const driver = async (): Promise<DriverCuda> => ({ cudaVersion: '12.6', driverVersion: '560.35.03', gpuName })
    const client = new ReleaseClient({ apiUrl: gh.apiUrl })
    const engine = await installEngine({ home, client, backend: 'auto', platform: 'linux', arch: 'x64', driver })
    expect(engine).toMatchObject({ id: `${TAG}-cpu`, backend: 'cpu', alreadyInstalled: false })
    const why = 'it put no layer on the GPU, so it found no GPU it can use'
    expect(engine.notice).toBe(`The CUDA 12 build of ${TAG} did not run on this GPU (${why}); installed the CPU build instead.`)
    expect(engine.noticeDetail).toContain('CUDA 12 build of b7000:')
    expect(await readdir(join(home, 'engines'))).toEqual([`${TAG}-cpu`])
    expect((await listInstalled(home)).map((e) => e.id)).toEqual([`${TAG}-cpu`])
  })
})
