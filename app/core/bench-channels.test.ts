import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BenchProgress, BenchReport } from '../contract/bench'
import { formatReportCsv, formatReportMarkdown } from '../bench/format'
import { fakeGpuTelemetry, type FakeGpuConfig } from '../../test/support/bench/fake-gpu'
import { addProfile, llamaServerChildren, makeCore, SMALL, tinyTarget, type TestCore } from '../../test/support/core/tiny-core'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'

// The Bench view's tune and export channels over the real core and llama-server, with a
// scripted GPU (as in tune.test.ts): expert layers kept on the GPU cost 150 MiB each.
const GPU: FakeGpuConfig = { totalMiB: 8192, idleMiB: 300, serverMiB: 600, perGpuExpertLayerMiB: 150, layers: 40, draftMiB: 200 }
let t: TestCore
let id: string
let report: BenchReport
let busy: Awaited<ReturnType<TestCore['core']['handlers']['bench:tune']>>
const progress: BenchProgress[] = []

beforeAll(async () => {
  t = await makeCore(fakeGpuTelemetry(GPU))
  t.core.on('bench:progress', (p) => progress.push(p))
  id = await addProfile(t.home, 'tiny', [llamaServerBin(), '-m', tinyTarget, ...SMALL])
  const first = t.core.handlers['bench:tune'](id, { runs: 1, tokens: 32, saveAs: 'tiny (tuned)' })
  busy = await t.core.handlers['bench:tune'](id, { runs: 1, tokens: 32, saveAs: null })
  const r = await first
  if (!r.ok) throw new Error(r.error.sentence)
  report = r.value
}, 600_000)

afterAll(async () => {
  await t?.dispose()
})

describe('bench:tune and bench:export over the core', () => {
  it(
    'tunes one profile with the core’s own telemetry: skips settings under the headroom, recommends, saves, reports progress, one job at ' +
      'a time',
    async () => {
      expect(busy).toEqual({
        ok: false,
        error: expect.objectContaining({ sentence: 'A benchmark is already running: wait for it to finish, or cancel it.' }),
      })
      const tune = report.tune
      expect(report.kind).toBe('tune')
      expect(tune?.idleFreeVramMiB).toBe(GPU.totalMiB - GPU.idleMiB)
      expect(tune?.candidates.some((c) => c.status === 'skipped-vram')).toBe(true)
      expect(tune?.candidates.some((c) => c.status === 'benched')).toBe(true)
      expect(tune?.recommended).not.toBeNull()
      const saved = (await t.core.handlers['profiles:list']()).profiles.find((p) => p.id === tune?.savedProfileId)
      expect(saved?.name).toBe('tiny (tuned)')
      expect(progress.length).toBeGreaterThan(3)
      expect(progress.at(-1)?.phase).toBe('done')
      expect(llamaServerChildren()).toEqual([])
    },
  )

  it('exports the stored report as the same Markdown and CSV the CLI prints, and names a missing one', async () => {
    expect(await t.core.handlers['bench:export'](report.createdAt, 'markdown')).toEqual({
      ok: true,
      value: `${formatReportMarkdown(report)}\n`,
    })
    expect(await t.core.handlers['bench:export'](report.createdAt, 'csv')).toEqual({ ok: true, value: formatReportCsv(report) })
    const missing = await t.core.handlers['bench:export']('2001-01-01T00:00:00.000Z', 'markdown')
    expect(missing).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'No stored report from 2001-01-01T00:00:00.000Z: run the benchmark again.' }),
    })
  })
})
