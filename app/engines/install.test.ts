import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FAKE_SERVER } from '../../test/helpers/paths'
import { GitHubReleasesStandIn, type StandInAsset } from '../../test/stand-ins/github-releases'
import { linuxTarGz, rawTarGz, type ArchiveFile, windowsZip, writeZeroBomb, zipWithNames } from '../../test/stand-ins/release-archives'
import { ENGINE_CHECKS_FILE } from './check-cache'
import { EngineError } from './engine-error'
import { runGpuCheck, type GpuCheck } from './gpu-check'
import { installEngine, type InstallOptions } from './install'
import { listInstalled } from './installed'
import { ReleaseClient } from './release-client'
import { removeEngine } from './remove'
import { checkForUpdate, dailyCheckDue } from './update-check'
import { readUpdateState } from './update-state'
import { verifyEngines } from './verify'
import { DEFAULT_SETTINGS } from '../contract/settings'
import { importArgv } from '../profiles/import-command'
import { ProfileStore } from '../profiles/store'

const TAG = 'b7000'
const fakeVerify = async (): Promise<{ version: string }> => ({ version: '7000 (abc1234)' })

let gh: GitHubReleasesStandIn
let linuxCpu: Buffer
let winCuda: Buffer
let cudart: Buffer
beforeAll(async () => {
  linuxCpu = await linuxTarGz(TAG, [
    { name: 'llama-server', content: '#!/bin/sh\necho fake\n' },
    { name: 'libggml-base.so', content: randomBytes(512 * 1024), mode: 0o644 },
  ])
  winCuda = await windowsZip([
    { name: 'llama-server.exe', content: 'MZ server' },
    { name: 'ggml-cuda.dll', content: 'MZ cuda' },
    { name: 'ggml-cpu.dll', content: 'MZ cpu' },
  ])
  cudart = await windowsZip([
    { name: 'cudart64_12.dll', content: 'MZ rt' },
    { name: 'cublas64_12.dll', content: 'MZ blas' },
  ])
  gh = await new GitHubReleasesStandIn().start()
})
afterAll(() => gh.close())

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'engines-install-'))
  gh.rateLimitUntil = null
  gh.requests.length = 0
  gh.releases = [release(TAG, '2026-11-01T00:00:00Z')]
})
afterEach(() => rm(home, { recursive: true, force: true }))

function release(tag: string, publishedAt: string, extra: StandInAsset[] = []): GitHubReleasesStandIn['releases'][number] {
  return {
    tag,
    publishedAt,
    assets: [
      { name: `llama-${tag}-bin-ubuntu-x64.tar.gz`, body: linuxCpu },
      { name: `llama-${tag}-bin-win-cuda-12.4-x64.zip`, body: winCuda },
      { name: 'cudart-llama-bin-win-cuda-12.4-x64.zip', body: cudart },
      ...extra,
    ],
  }
}

// The stand-in's llama-server above is a script that only prints: tests of the other steps leave the GPU check out.
function opts(over: Partial<InstallOptions> = {}): InstallOptions {
  const client = new ReleaseClient({ apiUrl: gh.apiUrl, token: 'secret-token' })
  return { home, client, backend: 'cpu', platform: 'linux', arch: 'x64', verify: fakeVerify, gpuCheck: false, ...over }
}

const BOMB_REFUSED = 'takes it past 64 MiB unpacked (the least any archive may unpack to; the archive is'

/** An archive bomb of 256 MiB of zeros (about 256 KiB), as the bytes a release would serve. */
async function bomb(name: string): Promise<Buffer> {
  const path = join(home, name)
  await writeZeroBomb(path, 256 * 1024 * 1024)
  const bytes = await readFile(path)
  await rm(path)
  return bytes
}

async function engineDirEntries(): Promise<string[]> {
  return readdir(join(home, 'engines')).catch(() => [])
}

describe('engines install against the GitHub stand-in', () => {
  it('installs the Linux tarball flat into engines/<tag>-cpu with a manifest, and lists it', async () => {
    const phases: string[] = []
    const engine = await installEngine(opts({ onProgress: (p) => phases.push(p.phase) }))
    expect(engine).toMatchObject({
      id: `${TAG}-cpu`,
      tag: TAG,
      backend: 'cpu',
      path: join(home, 'engines', `${TAG}-cpu`, 'llama-server'),
      version: '7000 (abc1234)',
      alreadyInstalled: false,
    })
    expect((await readdir(engine.dir)).sort()).toEqual(['libggml-base.so', 'llama-server', 'llama-tray-engine.json'])
    expect(await engineDirEntries()).toEqual([`${TAG}-cpu`]) // no temp folder, no download left
    expect([...new Set(phases)]).toEqual(['release', 'download', 'extract', 'verify', 'done'])
    const listed = await listInstalled(home)
    expect(listed.map((e) => [e.id, e.tag, e.backend, e.usedBy])).toEqual([[`${TAG}-cpu`, TAG, 'cpu', []]])
    expect(listed[0]?.sizeBytes).toBeGreaterThan(0)
    // The token went to the API host only; the download (302 to the CDN path) carried none.
    const withToken = gh.requests.filter((r) => r.headers.authorization !== undefined)
    expect(withToken.length).toBeGreaterThan(0)
    expect(withToken.every((r) => r.host === 'api' && r.headers.authorization === 'Bearer secret-token')).toBe(true)
    expect(gh.requests.some((r) => r.host === 'web' && r.path.startsWith('/cdn/'))).toBe(true)
    // A second install of the same release and backend downloads nothing.
    const downloadsBefore = gh.requests.filter((r) => r.host === 'web').length
    expect((await installEngine(opts())).alreadyInstalled).toBe(true)
    expect(gh.requests.filter((r) => r.host === 'web').length).toBe(downloadsBefore)
  })

  it('installs the Windows CUDA 12 zip with its cudart beside llama-server.exe (auto, driver CUDA 12.6)', async () => {
    const engine = await installEngine(
      opts({
        backend: 'auto',
        platform: 'win32',
        driver: async () => ({ cudaVersion: '12.6', gpuName: 'NVIDIA GeForce RTX 4060 Laptop GPU' }),
      }),
    )
    expect(engine.id).toBe(`${TAG}-cuda-12`)
    expect((await readdir(engine.dir)).sort()).toEqual([
      'cublas64_12.dll',
      'cudart64_12.dll',
      'ggml-cpu.dll',
      'ggml-cuda.dll',
      'llama-server.exe',
      'llama-tray-engine.json',
    ])
    const manifest = JSON.parse(await readFile(join(engine.dir, 'llama-tray-engine.json'), 'utf8')) as { assets: { name: string }[] }
    expect(manifest.assets.map((a) => a.name)).toEqual([`llama-${TAG}-bin-win-cuda-12.4-x64.zip`, 'cudart-llama-bin-win-cuda-12.4-x64.zip'])
  })

  it('resumes a download cut midway', async () => {
    gh.cutNext.set(`llama-${TAG}-bin-ubuntu-x64.tar.gz`, Math.floor(linuxCpu.length / 2))
    const engine = await installEngine(opts())
    expect(existsSync(engine.path)).toBe(true)
    const cdn = gh.requests.filter((r) => r.path.startsWith('/cdn/'))
    expect(cdn.length).toBe(2)
    // It resumes from what arrived before the cut (the socket may drop bytes still in flight).
    const from = Number(/^bytes=(\d+)-$/.exec(String(cdn[1]?.headers.range))?.[1])
    expect(from).toBeGreaterThan(0)
    expect(from).toBeLessThanOrEqual(Math.floor(linuxCpu.length / 2))
  })

  it('with no build for the platform, says which builds the release has, and leaves nothing', async () => {
    const err = (await installEngine(opts({ backend: 'vulkan' })).catch((e: unknown) => e)) as EngineError
    expect(err).toBeInstanceOf(EngineError)
    expect(err.kind).toBe('no-asset')
    expect(err.message).toBe(`llama.cpp ${TAG} has no Vulkan build for Linux x64: it has CPU for Linux x64 (--backend cpu).`)
    expect(await engineDirEntries()).toEqual([])
  })

  it('when rate limited, says so and when to retry', async () => {
    gh.rateLimitUntil = new Date(Date.now() + 17 * 60_000)
    const err = (await installEngine(opts({ client: new ReleaseClient({ apiUrl: gh.apiUrl }) })).catch((e: unknown) => e)) as EngineError
    expect(err.kind).toBe('rate-limited')
    expect(err.message).toMatch(
      new RegExp(
        String.raw`^GitHub's API rate limit is used up \(60 requests an hour without a token; set` +
          String.raw` GITHUB_TOKEN to raise it\): try again after \d\d:\d\d UTC \(in 1[78] min\)\.$`,
      ),
    )
    expect(Math.abs((err.retryAt?.getTime() ?? 0) - gh.rateLimitUntil.getTime())).toBeLessThan(1000)
    expect(await engineDirEntries()).toEqual([])
  })

  it('without a reachable API, says so in one sentence and leaves nothing', async () => {
    const closed = await new Promise<number>((done) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as AddressInfo).port
        srv.close(() => done(port))
      })
    })
    const err = (await installEngine(opts({ client: new ReleaseClient({ apiUrl: `http://127.0.0.1:${closed}` }) })).catch(
      (e: unknown) => e,
    )) as EngineError
    expect(err).toBeInstanceOf(EngineError)
    expect(err.kind).toBe('offline')
    expect(err.message.split('\n')).toHaveLength(1)
    expect(err.message).toContain(`127.0.0.1:${closed}`)
    expect(await engineDirEntries()).toEqual([])
  })

  it('refuses an archive whose digest does not match, naming it, with nothing left in engines/', async () => {
    gh.releases = [
      {
        ...release(TAG, '2026-11-01T00:00:00Z'),
        assets: [{ name: `llama-${TAG}-bin-ubuntu-x64.tar.gz`, body: linuxCpu, digest: `sha256:${'ab'.repeat(32)}` }],
      },
    ]
    const err = (await installEngine(opts()).catch((e: unknown) => e)) as EngineError
    expect(err).toBeInstanceOf(EngineError)
    expect(err.kind).toBe('download')
    expect(err.message).toMatch(/sha256/i)
    expect(await engineDirEntries()).toEqual([])
    expect(await listInstalled(home)).toEqual([])
  })

  it('stops a download that streams past the size the release lists (no Content-Length), installing and keeping nothing', async () => {
    const name = `llama-${TAG}-bin-ubuntu-x64.tar.gz`
    gh.sizeLies.set(name, 'endless')
    const ac = new AbortController()
    let largest = 0
    try {
      // The guard only ends the old behaviour (writing until the disk is full); the install must fail by itself first.
      const err = (await installEngine(
        opts({
          signal: ac.signal,
          onProgress: (p) => {
            largest = Math.max(largest, p.bytes ?? 0)
            if ((p.bytes ?? 0) > linuxCpu.length + 1024 * 1024) ac.abort()
          },
        }),
      ).catch((e: unknown) => e)) as EngineError
      expect(err).toBeInstanceOf(EngineError)
      expect(err.kind).toBe('download')
      const said = `sent more than the ${linuxCpu.length} bytes listed for it for \\S+${name}, so the download was stopped`
      const fix = 'try again later, and report it if it repeats\\.'
      expect(err.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+ ${said} and nothing was kept; ${fix}$`))
      expect(largest).toBeLessThanOrEqual(linuxCpu.length)
      expect(await engineDirEntries()).toEqual([])
    } finally {
      gh.sizeLies.clear()
    }
  })

  it.each([
    [
      'a "../" path (tar.gz)',
      'linux',
      async () =>
        rawTarGz([
          { name: `llama-${TAG}/llama-server`, type: 'file', content: 'x' },
          { name: `llama-${TAG}/../../../escaped.txt`, type: 'file', content: 'x' },
        ]),
      'climbs out',
    ],
    [
      'an absolute path (tar.gz)',
      'linux',
      async () => rawTarGz([{ name: '/tmp/llama-tray-escaped.txt', type: 'file', content: 'x' }]),
      'absolute path',
    ],
    [
      'a "../" path (zip)',
      'win32',
      async () =>
        zipWithNames([
          { name: 'llama-server.exe', content: 'MZ' },
          { name: '../../escaped.txt', content: 'x' },
        ]),
      'climbs out',
    ],
    [
      'a symlink through a symlink (tar.gz)',
      'linux',
      async () =>
        rawTarGz([
          { name: 'llama/a', type: 'symlink', linkname: '.' },
          { name: 'llama/b', type: 'symlink', linkname: 'a/a' },
          { name: 'llama/b/llama-server', type: 'file', content: 'x' },
        ]),
      'its entry "llama/b/llama-server" would be written through the symlink llama/b;',
    ],
    [
      'a name twice (zip)',
      'win32',
      async () =>
        zipWithNames([
          { name: 'llama-server.exe', content: 'MZ' },
          { name: 'ggml.dll', content: 'a' },
          { name: 'ggml.dll', content: 'b' },
        ]),
      'its entry "ggml.dll" comes twice in the archive',
    ],
    ['a bomb (tar.gz, 256 MiB of zeros)', 'linux', async () => bomb('bomb.tar.gz'), BOMB_REFUSED],
    ['a bomb (zip, 256 MiB of zeros)', 'win32', async () => bomb('bomb.zip'), BOMB_REFUSED],
  ] as const)('refuses an archive with %s, nothing written outside or left in engines/', async (_what, platform, build, why) => {
    const name = platform === 'linux' ? `llama-${TAG}-bin-ubuntu-x64.tar.gz` : `llama-${TAG}-bin-win-cpu-x64.zip`
    gh.releases = [{ tag: TAG, publishedAt: '2026-11-01T00:00:00Z', assets: [{ name, body: await build() }] }]
    const err = (await installEngine(opts({ platform })).catch((e: unknown) => e)) as EngineError
    expect(err.kind).toBe('unsafe-archive')
    expect(err.message).toContain(why)
    const fix = 'nothing was installed \\(report it to the mirror or choose another --tag\\)\\.'
    const archiveName = name.replace(/\./g, '\\.')
    expect(err.message).toMatch(new RegExp(`^llama\\.cpp ${TAG}'s archive ${archiveName} was refused: its entry ".+; ${fix}$`))
    expect(await engineDirEntries()).toEqual([])
    expect(existsSync(join(home, 'escaped.txt'))).toBe(false)
    expect(existsSync(join(dirname(home), 'escaped.txt'))).toBe(false)
    expect(existsSync('/tmp/llama-tray-escaped.txt')).toBe(false)
  })

  it('says a damaged archive cannot be read, in one sentence, leaving nothing', async () => {
    const name = `llama-${TAG}-bin-ubuntu-x64.tar.gz`
    const whole = rawTarGz([{ name: `llama-${TAG}/llama-server`, type: 'file', content: 'x'.repeat(100_000) }])
    gh.releases = [{ tag: TAG, publishedAt: '2026-11-01T00:00:00Z', assets: [{ name, body: whole.subarray(0, whole.length - 40) }] }]
    const err = (await installEngine(opts()).catch((e: unknown) => e)) as EngineError
    expect(err).toBeInstanceOf(EngineError)
    expect(err.kind).toBe('bad-answer')
    expect(err.message).toBe(
      `llama.cpp ${TAG}'s archive ${name} cannot be read although it matches its digest, ` +
        'so the release itself is broken and nothing was installed; choose another --tag.',
    )
    expect(await engineDirEntries()).toEqual([])
  })

  it('refuses an engine whose binary does not run, leaving nothing', async () => {
    const err = (await installEngine(opts({ verify: undefined })).catch((e: unknown) => e)) as EngineError
    // The stand-in's llama-server is a shell script that prints no version or flags.
    expect(err.kind).toBe('does-not-run')
    expect(await engineDirEntries()).toEqual([])
  })

  it('never lists a half-installed or foreign folder', async () => {
    await installEngine(opts())
    await mkdir(join(home, 'engines', `.installing-${TAG}-vulkan-1234`), { recursive: true })
    await mkdir(join(home, 'engines', 'b1-cpu'), { recursive: true })
    await writeFile(join(home, 'engines', 'b1-cpu', 'llama-server'), 'x')
    expect((await listInstalled(home)).map((e) => e.id)).toEqual([`${TAG}-cpu`])
  })
})

describe('engines remove', () => {
  it('refuses an engine a profile uses unless forced', async () => {
    const engine = await installEngine(opts())
    const store = await ProfileStore.open(home)
    const profile = importArgv([engine.path, '-m', '/models/small.gguf'], { name: 'Qwen small' })
    await store.upsert(profile)
    expect((await listInstalled(home))[0]?.usedBy).toEqual([{ id: profile.id, name: 'Qwen small' }])
    const err = (await removeEngine(home, engine.id).catch((e: unknown) => e)) as EngineError
    expect(err.kind).toBe('in-use')
    expect(err.message).toBe(
      `${engine.id} is used by the profile "Qwen small": point it at another engine first, or remove it anyway with --force.`,
    )
    expect(existsSync(engine.path)).toBe(true)
    await removeEngine(home, engine.id, { force: true })
    expect(await engineDirEntries()).toEqual([])
  })

  it('names the installed engines when the id is unknown', async () => {
    await installEngine(opts())
    await expect(removeEngine(home, 'b1-cpu')).rejects.toThrow(
      `No installed engine is called "b1-cpu" (installed: ${TAG}-cpu): see llama-tray engines list.`,
    )
  })
})

describe('engines update --check', () => {
  it('says a newer release is out, then that the same one is current; never downloads; stores the check time', async () => {
    await installEngine(opts())
    const client = new ReleaseClient({ apiUrl: gh.apiUrl })
    const same = await checkForUpdate(home, client, new Date('2026-12-01T10:00:00Z'))
    expect(same).toMatchObject({ latest: { tag: TAG }, installed: TAG, newer: false })
    gh.releases = [...gh.releases, release('b7100', '2026-11-20T00:00:00Z')]
    gh.requests.length = 0
    const newer = await checkForUpdate(home, client, new Date('2026-12-01T11:00:00Z'))
    expect(newer).toMatchObject({ latest: { tag: 'b7100' }, installed: TAG, newer: true })
    expect(gh.requests.every((r) => r.host === 'api')).toBe(true)
    const state = await readUpdateState(home)
    expect(state).toMatchObject({ lastCheckAt: '2026-12-01T11:00:00.000Z', latestTag: 'b7100' })
    expect(dailyCheckDue(DEFAULT_SETTINGS, state, new Date('2026-12-02T10:59:00Z'))).toBe(false)
    expect(dailyCheckDue(DEFAULT_SETTINGS, state, new Date('2026-12-02T11:00:00Z'))).toBe(true)
    expect(dailyCheckDue({ engineUpdateCheck: false }, state, new Date('2026-12-09T00:00:00Z'))).toBe(false)
  })
})

/** A build whose llama-server is the fake server in one mode (it serves /health and /completion like the real one). */
const fakeBuild = (mode: 'normal' | 'cuda-error'): string =>
  `#!/bin/sh\nexec "${process.execPath}" "${FAKE_SERVER}" --fake-mode ${mode} "$@"\n`
const NO_KERNEL = 'CUDA error: no kernel image is available for execution on the device'
const CUDA_FAILS = `The CUDA 12 build of ${TAG} did not run on this GPU (${NO_KERNEL})`
const CUDA_TARBALL = `llama-${TAG}-bin-ubuntu-cuda-12.4-x64.tar.gz`
const CPU_TARBALL = `llama-${TAG}-bin-ubuntu-x64.tar.gz`

describe('engines install: the GPU check after extraction', () => {
  let checkRelease: GitHubReleasesStandIn['releases'][number]
  let cudaBuild: Buffer
  beforeAll(async () => {
    const lib = (name: string, content: string): ArchiveFile => ({ name, content, mode: 0o644 })
    cudaBuild = await linuxTarGz(TAG, [{ name: 'llama-server', content: fakeBuild('cuda-error') }, lib('libggml-cuda.so', 'ELF cuda')])
    const cpuBuild = await linuxTarGz(TAG, [{ name: 'llama-server', content: fakeBuild('normal') }, lib('libggml-cpu.so', 'ELF cpu')])
    const assets = [
      { name: CUDA_TARBALL, body: cudaBuild },
      { name: CPU_TARBALL, body: cpuBuild },
    ]
    checkRelease = { tag: TAG, publishedAt: '2026-11-01T00:00:00Z', assets }
  })
  const checked: string[] = []
  const counting: GpuCheck = (r) => {
    checked.push(r.backend)
    return runGpuCheck(r)
  }
  beforeEach(() => {
    gh.releases = [checkRelease]
    checked.length = 0
  })
  const rtx4060 = 'NVIDIA GeForce RTX 4060 Laptop GPU'
  const driver = (driverVersion: string) => async () => ({ cudaVersion: '12.6', driverVersion, gpuName: rtx4060 })
  const auto = (driverVersion: string, over: Partial<InstallOptions> = {}): InstallOptions =>
    opts({ backend: 'auto', driver: driver(driverVersion), gpuCheck: counting, ...over })

  it('auto: a CUDA build that fails the check is not installed, the CPU build is, and one sentence names both', async () => {
    const phases: string[] = []
    const engine = await installEngine(auto('560.35.03', { onProgress: (p) => phases.push(p.phase) }))
    expect(engine).toMatchObject({ id: `${TAG}-cpu`, backend: 'cpu', alreadyInstalled: false })
    expect(engine.notice).toBe(`${CUDA_FAILS}; installed the CPU build instead.`)
    expect(engine.noticeDetail).toContain('current device: 0, in function ggml_cuda_compute_forward')
    expect(checked).toEqual(['cuda-12', 'cpu'])
    expect(await engineDirEntries()).toEqual([`${TAG}-cpu`])
    expect([...new Set(phases)]).toEqual(['release', 'download', 'extract', 'verify', 'check', 'done'])
    expect(gh.requests.filter((r) => r.host === 'api')).toHaveLength(1) // both builds from one answer of the API
  })

  it('an explicit --backend that fails the check is an error with the sentence, and nothing is installed', async () => {
    const err = (await installEngine(auto('560.35.03', { backend: 'cuda-12' })).catch((e: unknown) => e)) as EngineError
    expect(err).toBeInstanceOf(EngineError)
    expect(err.kind).toBe('gpu-check-failed')
    const fix = 'update the GPU driver, or choose another --backend (auto falls back to the next build by itself).'
    expect(err.message).toBe(`${CUDA_FAILS}, so nothing was installed: ${fix}`)
    expect(err.detail).toContain(NO_KERNEL)
    expect(await engineDirEntries()).toEqual([])
    expect(await listInstalled(home)).toEqual([])
  })

  it('caches the verdict by binary and driver: a second install checks nothing, a new driver checks again', async () => {
    await installEngine(auto('560.35.03'))
    expect(checked).toEqual(['cuda-12', 'cpu'])
    expect(existsSync(join(home, ENGINE_CHECKS_FILE))).toBe(true)
    await removeEngine(home, `${TAG}-cpu`)
    const again = await installEngine(auto('560.35.03'))
    expect(again.notice).toBe(`${CUDA_FAILS}; installed the CPU build instead.`)
    expect(checked).toEqual(['cuda-12', 'cpu']) // both verdicts came from the cache
    await removeEngine(home, `${TAG}-cpu`)
    await installEngine(auto('570.86.10'))
    expect(checked).toEqual(['cuda-12', 'cpu', 'cuda-12']) // the CPU build's check does not depend on the driver
  })

  it('no build runs: says so for each, and installs nothing', async () => {
    gh.releases = [
      {
        ...checkRelease,
        assets: [
          { name: CUDA_TARBALL, body: cudaBuild },
          { name: CPU_TARBALL, body: cudaBuild },
        ],
      },
    ]
    const err = (await installEngine(auto('560.35.03', { gpuCheck: undefined })).catch((e: unknown) => e)) as EngineError
    expect(err.kind).toBe('gpu-check-failed')
    const cause = `No build of llama.cpp ${TAG} ran on this GPU (CUDA 12: ${NO_KERNEL}; CPU: ${NO_KERNEL}), so nothing was installed`
    expect(err.message).toBe(`${cause}: update the GPU driver, then run llama-tray engines install again.`)
    expect(await engineDirEntries()).toEqual([])
  })

  it("records every file's SHA-256 at install; engines verify finds a file whose bytes changed, and checks the GPU again", async () => {
    const engine = await installEngine(opts({ backend: 'cpu', gpuCheck: counting }))
    const manifest = JSON.parse(await readFile(join(engine.dir, 'llama-tray-engine.json'), 'utf8')) as { files: Record<string, string> }
    expect(Object.keys(manifest.files)).toEqual(['libggml-cpu.so', 'llama-server'])
    const fine = await verifyEngines({ home, check: counting })
    expect(fine.map((r) => r.sentence)).toEqual([`${TAG}-cpu: its 2 files match the hashes recorded at install; the GPU check passed.`])
    expect(checked).toEqual(['cpu', 'cpu']) // verify ignores the cached verdict
    await writeFile(join(engine.dir, 'libggml-cpu.so'), 'ELF cpu, patched')
    const [changed] = await verifyEngines({ home, id: `${TAG}-cpu` })
    expect(changed).toMatchObject({ ok: false, files: { state: 'changed', changed: ['libggml-cpu.so'], missing: [] } })
    expect(changed?.gpuCheck).toEqual({ ok: true })
    const fix = `reinstall it (llama-tray engines remove ${TAG}-cpu --force, then llama-tray engines install)`
    expect(changed?.sentence).toBe(`${TAG}-cpu: 1 file changed since install (libggml-cpu.so); the GPU check passed: ${fix}.`)
  })

  it('engines verify on an engine installed before hashes were recorded says so and does not fail it', async () => {
    const engine = await installEngine(opts({ backend: 'cpu' }))
    const path = join(engine.dir, 'llama-tray-engine.json')
    const { files: _files, ...older } = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
    await writeFile(path, JSON.stringify(older))
    await writeFile(join(engine.dir, 'libggml-cpu.so'), 'anything')
    const [report] = await verifyEngines({ home })
    expect(report).toMatchObject({ ok: true, files: { state: 'unrecorded' } })
    const unrecorded = 'it was installed before Llama Tray recorded file hashes, so its files were not checked'
    expect(report?.sentence).toBe(`${TAG}-cpu: ${unrecorded}; the GPU check passed.`)
  })
})
