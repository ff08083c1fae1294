import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFile, writeFile } from 'node:fs/promises'
import type { EngineInstallProgress } from '../contract/engines'
import type { GateFigures } from '../engines/safety-gate'
import { formatCommandLine } from '../lib/command-line'
import { llamaServerReleaseFiles } from '../../test/helpers/llama-server-bin'
import { GitHubReleasesStandIn } from '../../test/stand-ins/github-releases'
import { linuxTarGz } from '../../test/stand-ins/release-archives'
import { LlamaTrayCore } from './llama-tray-core'
import { addProfile, SMALL, tinyTarget } from '../../test/support/core/tiny-core'

// The dashboard's engine channels over the real core: install from the GitHub
// stand-in (the real llama-server packed as llama.cpp's Linux tarball), list,
// and remove refused while the running server uses the engine.
const TAG = 'v0.5.0'
let gh: GitHubReleasesStandIn
let tarballSize = 0
let home: string
let core: LlamaTrayCore
const progress: EngineInstallProgress[] = []
let tarball: Buffer
const figures = (decode: number, prompt: number): GateFigures => ({
  median: { tokensPerSecond: decode, promptTokensPerSecond: prompt },
  tokensPerSecondSpread: { robustCvPct: 1 },
  promptTokensPerSecondSpread: { robustCvPct: 1 },
})
/** What the scripted gate bench answers next for [old, new]. */
let nextBench: readonly [GateFigures, GateFigures] = [figures(20, 300), figures(20, 300)]

beforeAll(async () => {
  tarball = await linuxTarGz(TAG, llamaServerReleaseFiles())
  tarballSize = tarball.length
  gh = await new GitHubReleasesStandIn().start([
    { tag: TAG, publishedAt: '2026-11-28T12:00:00Z', assets: [{ name: `llama-${TAG}-bin-ubuntu-x64.tar.gz`, body: tarball }] },
  ])
  home = mkdtempSync(join(tmpdir(), 'llama-tray-engine-channels-'))
  core = await LlamaTrayCore.create({
    home,
    telemetry: null,
    supervisor: { healthIntervalMs: 50 },
    engines: { releases: { apiUrl: gh.apiUrl }, driver: async () => null, gate: { runs: 1, tokens: 8, bench: async () => nextBench } },
  })
  core.on('engines:progress', (p) => progress.push(p))
}, 900_000)

afterAll(async () => {
  await core?.dispose()
  await gh?.close()
  rmSync(home, { recursive: true, force: true })
})

describe('engines:* over the core', () => {
  it('plans the install for the first-run offer (backend, archives and sizes from the listing) without downloading', async () => {
    const before = gh.requests.length
    const plan = await core.handlers['engines:plan']({ backend: 'auto', tag: null })
    expect(plan).toEqual({
      ok: true,
      value: {
        id: `${TAG}-cpu`,
        tag: TAG,
        backend: 'cpu',
        gpuName: null,
        driverCuda: null,
        assets: [{ name: `llama-${TAG}-bin-ubuntu-x64.tar.gz`, sizeBytes: tarballSize }],
        downloadBytes: tarballSize,
        installed: false,
      },
    })
    expect(gh.requests.slice(before).map((r) => r.host)).toEqual(['api'])
    expect(await core.handlers['engines:plan']({ backend: 'vulkan', tag: null })).toEqual({
      ok: false,
      error: expect.objectContaining({
        sentence: `llama.cpp ${TAG} has no Vulkan build for Linux x64: it has CPU for Linux x64 (--backend cpu).`,
      }),
    })
  })

  it('installs with progress events, lists, checks for updates, and never removes the engine the server runs', async () => {
    const [installed, busy] = await Promise.all([
      core.handlers['engines:install']({ backend: 'auto', tag: null }),
      core.handlers['engines:install']({ backend: 'auto', tag: null }),
    ])
    expect(busy).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'An engine is already being installed: wait for it to finish.' }),
    })
    if (!installed.ok) throw new Error(installed.error.sentence)
    expect(installed.value).toMatchObject({ id: `${TAG}-cpu`, tag: TAG, backend: 'cpu', alreadyInstalled: false })
    expect([...new Set(progress.map((p) => p.phase))]).toEqual(['release', 'download', 'extract', 'verify', 'check', 'done'])
    const last = progress.filter((p) => p.phase === 'download').at(-1)
    expect(last?.bytes).toBe(last?.total)

    // Discovery lists the installed engine first, so the first run's profile runs it.
    const found = await core.handlers['profiles:discover']()
    if (!found.ok) throw new Error(found.error.sentence)
    expect(found.value.binaries[0]).toMatchObject({
      path: installed.value.path,
      source: `installed by Llama Tray (llama.cpp ${TAG}, CPU)`,
      fork: 'mainline',
    })

    const id = await addProfile(home, 'tiny', [installed.value.path, '-m', tinyTarget, ...SMALL])
    const listed = await core.handlers['engines:list']()
    if (!listed.ok) throw new Error(listed.error.sentence)
    expect(listed.value.installed.map((e) => [e.id, e.usedBy])).toEqual([[`${TAG}-cpu`, [{ id, name: 'tiny' }]]])
    expect(listed.value.elsewhere.every((b) => !b.path.startsWith(join(home, 'engines')))).toBe(true)
    expect(await core.handlers['engines:plan']({ backend: 'auto', tag: null })).toMatchObject({
      ok: true,
      value: { id: `${TAG}-cpu`, installed: true },
    })
    expect(await core.handlers['engines:check-update']()).toMatchObject({
      ok: true,
      value: { latest: { tag: TAG }, installed: TAG, newer: false },
    })

    const started = await core.handlers['server:start'](id)
    expect(started.ok && started.value.state).toBe('ready')
    expect(await core.handlers['engines:remove'](`${TAG}-cpu`, true)).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: `${TAG}-cpu runs the server now: stop it first, then remove the engine.` }),
    })
    await core.handlers['server:stop']()
    expect(await core.handlers['engines:remove'](`${TAG}-cpu`, false)).toEqual({
      ok: false,
      error: expect.objectContaining({
        sentence: `${TAG}-cpu is used by the profile "tiny": point it at another engine first, or remove it anyway with --force.`,
      }),
    })
    expect(await core.handlers['engines:remove'](`${TAG}-cpu`, true)).toMatchObject({ ok: true, value: { id: `${TAG}-cpu` } })
    expect(await core.handlers['engines:list']()).toMatchObject({ ok: true, value: { installed: [] } })
    expect(await core.handlers['engines:plan']({ backend: 'auto', tag: null })).toMatchObject({ ok: true, value: { installed: false } })
  })

  it('notices a newer release at most daily, updates a profile through the safety gate, rolls back, and refuses a slower one', async () => {
    const installed = await core.handlers['engines:install']({ backend: 'cpu', tag: TAG })
    if (!installed.ok) throw new Error(installed.error.sentence)
    const imported = await core.handlers['profiles:import'](formatCommandLine([installed.value.path, '-m', tinyTarget, ...SMALL]), 'tiny2')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    gh.releases = [
      ...gh.releases,
      {
        tag: 'v0.5.1',
        publishedAt: '2026-11-30T12:00:00Z',
        assets: [
          {
            name: 'llama-v0.5.1-bin-ubuntu-x64.tar.gz',
            body: await linuxTarGz('v0.5.1', llamaServerReleaseFiles()),
          },
        ],
      },
    ]

    // Checked less than a day ago (the first test): the stored answer, no request.
    gh.requests.length = 0
    expect(await core.handlers['engines:update-notice']()).toMatchObject({ latest: { tag: TAG }, newer: false })
    expect(gh.requests).toEqual([])
    // A day later the notice asks again.
    const statePath = join(home, 'engine-updates.json')
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { lastCheckAt: string }
    await writeFile(statePath, JSON.stringify({ ...state, lastCheckAt: new Date(Date.now() - 25 * 3600_000).toISOString() }))
    // Asked twice at once (React's development build mounts the Settings section twice): one
    // request, the same notice for both (two checks at once once lost the notice to a failed write).
    const both = await Promise.all([core.handlers['engines:update-notice'](), core.handlers['engines:update-notice']()])
    for (const n of both) expect(n).toMatchObject({ latest: { tag: 'v0.5.1' }, installed: TAG, newer: true })
    expect(gh.requests.filter((r) => r.host === 'api')).toHaveLength(1)
    // Off in the settings: no notice.
    await core.handlers['settings:set']({ engineUpdateCheck: false })
    expect(await core.handlers['engines:update-notice']()).toBeNull()
    await core.handlers['settings:set']({ engineUpdateCheck: true })

    const changed: string[] = []
    const off = core.on('profiles:changed', (summary) => changed.push(summary.profiles.find((p) => p.id === id)?.binary ?? ''))
    nextBench = [figures(20, 300), figures(21, 310)]
    const updated = await core.handlers['engines:update'](id)
    const newPath = join(home, 'engines', 'v0.5.1-cpu', 'llama-server')
    expect(updated).toMatchObject({ ok: true, value: { adopted: true, from: installed.value.path, to: newPath, engineId: 'v0.5.1-cpu' } })
    expect(changed.at(-1)).toBe(newPath)
    expect(await core.handlers['engines:rollback'](id)).toEqual({ ok: true, value: { profileId: id, binary: installed.value.path } })
    expect(changed.at(-1)).toBe(installed.value.path)

    nextBench = [figures(20, 300), figures(15, 300)]
    const refused = await core.handlers['engines:update'](id)
    expect(refused.ok && refused.value.adopted).toBe(false)
    expect(refused.ok && refused.value.summary).toMatch(/^"tiny2" stays on its engine: generation is 25\.0 % slower/)
    expect((await core.handlers['profiles:get'](id))?.binary).toBe(installed.value.path)
    off()
  })
})
