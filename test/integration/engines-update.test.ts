import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BenchHost } from '../../app/bench/bench-host'
import { installEngine } from '../../app/engines/install'
import { ReleaseClient } from '../../app/engines/release-client'
import type { GateFigures, PairBench } from '../../app/engines/safety-gate'
import { rollbackProfileEngine, updateProfileEngine } from '../../app/engines/update'
import { checkForUpdate } from '../../app/engines/update-check'
import { importArgv } from '../../app/profiles/import-command'
import { ProfileStore } from '../../app/profiles/store'
import { llamaServerReleaseFiles } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { GitHubReleasesStandIn, type StandInRelease } from '../stand-ins/github-releases'
import { linuxTarGz } from '../stand-ins/release-archives'

// Two releases of the real llama-server; the gate's bench is scripted (the
// verdict logic is what is tested here; the bench itself has its own tests).
let gh: GitHubReleasesStandIn
let releases: StandInRelease[]
let home: string
const figures = (decode: number, prompt: number): GateFigures => ({
  median: { tokensPerSecond: decode, promptTokensPerSecond: prompt },
  tokensPerSecondSpread: { robustCvPct: 1 },
  promptTokensPerSecondSpread: { robustCvPct: 1 },
})
const scripted =
  (old: GateFigures, neu: GateFigures, seen: string[][] = []): PairBench =>
  async (a, b) => {
    seen.push([a.spec.exe, b.spec.exe])
    return [old, neu] as const
  }
const noCore = {} as BenchHost // the scripted bench never reaches the core

beforeAll(async () => {
  const asset = async (tag: string): Promise<StandInRelease> => ({
    tag,
    publishedAt: tag === 'v0.5.0' ? '2026-11-01T00:00:00Z' : '2026-11-29T00:00:00Z',
    assets: [{ name: `llama-${tag}-bin-ubuntu-x64.tar.gz`, body: await linuxTarGz(tag, llamaServerReleaseFiles()) }],
  })
  releases = [await asset('v0.5.0'), await asset('v0.5.1')]
  gh = await new GitHubReleasesStandIn().start()
}, 900_000)
afterAll(() => gh.close())

let profileId: string
let oldPath: string
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'llama-tray-engines-update-'))
  gh.releases = [releases[0] as StandInRelease]
  const old = await installEngine({
    home,
    client: new ReleaseClient({ apiUrl: gh.apiUrl }),
    backend: 'cpu',
    platform: 'linux',
    arch: 'x64',
  })
  oldPath = old.path
  const store = await ProfileStore.open(home)
  const p = importArgv([old.path, '-m', model('tiny-target.gguf'), '-c', '2048', '-t', '1'], { name: 'tiny' })
  await store.upsert(p)
  profileId = p.id
  gh.releases = releases
  return () => rmSync(home, { recursive: true, force: true })
})

const binaryOf = async (): Promise<string | undefined> => (await ProfileStore.open(home)).find(profileId)?.binary

describe('engines update <profile> (safety gate, scripted bench)', () => {
  it('update --check sees the newer release', async () => {
    expect(await checkForUpdate(home, new ReleaseClient({ apiUrl: gh.apiUrl }))).toMatchObject({
      latest: { tag: 'v0.5.1' },
      installed: 'v0.5.0',
      newer: true,
    })
  })

  it('adopts a good update (old and new benched), keeps the old engine, and rolls back', async () => {
    const seen: string[][] = []
    const report = await updateProfileEngine({ core: noCore, home }, 'tiny', {
      client: new ReleaseClient({ apiUrl: gh.apiUrl }),
      platform: 'linux',
      arch: 'x64',
      gate: { runs: 1, tokens: 8, bench: scripted(figures(20, 300), figures(20.2, 305), seen) },
    })
    const newPath = join(home, 'engines', 'v0.5.1-cpu', 'llama-server')
    expect(report).toMatchObject({ adopted: true, from: oldPath, to: newPath })
    expect(seen).toEqual([[oldPath, newPath]])
    expect(report.summary).toMatch(/^"tiny" now runs llama\.cpp v0\.5\.1 \(v0\.5\.1-cpu\): generation 20\.2 vs 20\.0 tok\/s/)
    expect(await binaryOf()).toBe(newPath)
    await rollbackProfileEngine(home, 'tiny')
    expect(await binaryOf()).toBe(oldPath)
  })

  it('refuses a slower update: the profile stays, and the report says why', async () => {
    const report = await updateProfileEngine({ core: noCore, home }, 'tiny', {
      client: new ReleaseClient({ apiUrl: gh.apiUrl }),
      platform: 'linux',
      arch: 'x64',
      gate: { runs: 1, tokens: 8, bench: scripted(figures(20, 300), figures(20, 240)) },
    })
    expect(report.adopted).toBe(false)
    expect(report.summary).toBe(
      `"tiny" stays on its engine: prompt processing is 20.0 % slower on the new engine (240.0 vs 300.0 tok/s), more than this run's ` +
        `noise of 3.0 %. v0.5.1-cpu stays installed (llama-tray engines remove v0.5.1-cpu).`,
    )
    expect(await binaryOf()).toBe(oldPath)
  })

  it('refuses an update whose bench cannot load it', async () => {
    const failing: PairBench = async () => {
      throw new Error('llama-server exited before it was ready: out of memory')
    }
    const report = await updateProfileEngine({ core: noCore, home }, 'tiny', {
      client: new ReleaseClient({ apiUrl: gh.apiUrl }),
      platform: 'linux',
      arch: 'x64',
      gate: { runs: 1, tokens: 8, bench: failing },
    })
    expect(report.adopted).toBe(false)
    expect(report.summary).toContain('the bench did not finish: llama-server exited before it was ready: out of memory')
    expect(await binaryOf()).toBe(oldPath)
  })
})
