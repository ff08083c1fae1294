import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BenchProgress, BenchReport } from '../contract/bench'
import { buildFitReport } from '../fit/fit-report'
import { readGgufModel } from '../fit/gguf-model'
import { parseLlamaArgs } from '../fit/llama-args'
import { GpuRuntimeStore } from '../fit/runtime-store'
import { ProfileStore } from '../profiles/store'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { isRunning } from '../../test/helpers/processes'
import { fakeFreeMiB, fakeGpuTelemetry, type FakeGpuConfig } from '../../test/support/bench/fake-gpu'
import { addProfile, llamaServerChildren, makeCore, SMALL, tinyTarget, type TestCore } from '../../test/support/core/tiny-core'
import { sweepSettings, tuneProfile } from './tune'

// 8 GiB; each of the 40 expert layers kept on the GPU costs 150 MiB: --n-cpu-moe 0 and 1
// leave less than 1536 MiB free once loaded, 2 and up keep the headroom.
const GPU: FakeGpuConfig = { totalMiB: 8192, idleMiB: 300, serverMiB: 600, perGpuExpertLayerMiB: 150, layers: 40, draftMiB: 200 }
const HEADROOM = 1536
const LEARNED_RUNTIME_MIB = 420
let t: TestCore
let report: BenchReport
let args: string[]
let specBefore: string
const phases: BenchProgress[] = []

beforeAll(async () => {
  const bin = llamaServerBin()
  const telemetry = fakeGpuTelemetry(GPU)
  t = await makeCore(telemetry)
  args = ['-m', tinyTarget, ...SMALL]
  const id = await addProfile(t.home, 'tiny', [bin, ...args])
  // A CUDA runtime learned on this GPU model after an earlier launch: the fit must use it, not the default.
  await (await GpuRuntimeStore.open(t.home)).record('Fake GPU', LEARNED_RUNTIME_MIB)
  const started = await t.core.handlers['server:start'](id)
  expect(started.ok).toBe(true)
  specBefore = JSON.stringify(t.core.server.getLaunchSpec())
  report = await tuneProfile({ core: t.core, home: t.home, telemetry, onProgress: (p) => phases.push(p) }, id, {
    runs: 1,
    tokens: 32,
    radius: 1,
    headroomMiB: HEADROOM,
    saveAs: 'tiny tuned',
  })
}, 600_000)

afterAll(async () => {
  await t?.dispose()
})

describe('tune on the real tiny server with a fake GPU', () => {
  it('sweeps around the fit suggestion, skipping every setting whose measured free VRAM is under the headroom', async () => {
    const tune = report.tune
    if (!tune) throw new Error('no tune summary')
    const fit = buildFitReport({
      model: await readGgufModel(tinyTarget),
      draft: null,
      settings: parseLlamaArgs(args).settings,
      freeVramMiB: tune.idleFreeVramMiB,
      headroomMiB: HEADROOM,
      vramSource: 'telemetry',
      runtimeMiB: LEARNED_RUNTIME_MIB,
      runtimeSource: 'measured',
    })
    expect(tune.fitRuntimeMiB).toBe(LEARNED_RUNTIME_MIB)
    expect(tune.fitSuggestion).toBe(fit.nCpuMoe)
    const planned = sweepSettings(fit.nCpuMoe, 1, 40, 0)
    const tried = tune.candidates.map((c) => c.nCpuMoe)
    expect(tried.slice(0, planned.length)).toEqual(planned)
    for (const c of tune.candidates) {
      const free = fakeFreeMiB(GPU, c.nCpuMoe, false)
      expect(c.minFreeVramMiB).toBe(free)
      expect(c.status).toBe(free < HEADROOM ? 'skipped-vram' : 'benched')
    }
    expect(tune.candidates.some((c) => c.status === 'skipped-vram')).toBe(true)
    console.log(
      tune.candidates
        .map(
          (c) =>
            `--n-cpu-moe ${c.nCpuMoe}: ${c.status}, ${c.minFreeVramMiB} MiB free` +
            `${c.tokensPerSecond ? `, ${c.tokensPerSecond.toFixed(1)} tok/s` : ''}`,
        )
        .join('\n'),
    )
  })

  it('recommends the fastest setting that keeps the headroom and saves it as a new profile', async () => {
    const tune = report.tune
    const benched = tune?.candidates.filter((c) => c.status === 'benched') ?? []
    expect(benched.length).toBeGreaterThan(0)
    const fastest = benched.reduce((a, b) => ((b.tokensPerSecond ?? 0) > (a.tokensPerSecond ?? 0) ? b : a))
    expect(tune?.recommended?.nCpuMoe).toBe(fastest.nCpuMoe)
    expect(fakeFreeMiB(GPU, fastest.nCpuMoe, false)).toBeGreaterThanOrEqual(HEADROOM)
    expect(tune?.recommended?.args).toEqual(expect.arrayContaining(['--n-cpu-moe', String(fastest.nCpuMoe)]))
    const store = await ProfileStore.open(t.home)
    const saved = store.file.profiles.find((p) => p.id === tune?.savedProfileId)
    expect(saved?.name).toBe('tiny tuned')
    expect(saved?.settings.nCpuMoe).toBe(fastest.nCpuMoe)
    expect(report.results.map((r) => r.nCpuMoe)).toEqual(benched.map((c) => c.nCpuMoe))
  })

  it('puts the profile that ran before back, and leaves no other process', () => {
    const status = t.core.server.getStatus()
    expect(status.state).toBe('ready')
    expect(JSON.stringify(t.core.server.getLaunchSpec())).toBe(specBefore)
    expect(llamaServerChildren()).toEqual([status.pid])
    for (const pid of t.pids) if (pid !== status.pid) expect(isRunning(pid)).toBe(false)
    expect(phases.some((p) => p.phase === 'measuring-vram')).toBe(true)
  })
})
