import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CUDA_RUNTIME_MIB } from '../../app/fit/runtime-overhead'
import { gpuBytes } from '../../app/fit/fit-report'
import { replayGpuLaunches, reportedTotal, type GpuReplayRow } from './gpu-calibration'
import { readGgufModel, type GgufModel } from '../../app/fit/gguf-model'
import { qwen35SmallGguf, qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'
import { CUDA_H200, MODELS as MODELS_DIR } from '../../test/helpers/paths'

// Recorded on a real GPU (benchmarks/gpu-calibration/run-on-gpu.sh); replayed here without one.
const LOGS = CUDA_H200
const MIB = 1024 * 1024
const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-gpu-cal-'))
let rows: GpuReplayRow[] = []

beforeAll(async () => {
  await writeSyntheticGguf(join(tmp, 'q36.gguf'), qwen36MoeGguf())
  await writeSyntheticGguf(join(tmp, 'q08.gguf'), qwen35SmallGguf())
  const models: Record<string, GgufModel> = {
    T: await readGgufModel(join(MODELS_DIR, 'tiny-target.gguf')),
    D: await readGgufModel(join(MODELS_DIR, 'tiny-draft.gguf')),
    Q36: await readGgufModel(join(tmp, 'q36.gguf')),
    Q08: await readGgufModel(join(tmp, 'q08.gguf')),
  }
  rows = await replayGpuLaunches(LOGS, models)
  const f = (n: number): string => (n / MIB).toFixed(1).padStart(8)
  const table = rows.map((r) => {
    const rep = r.reported[0]!
    const e = r.estimate.model
    return (
      `${r.name.padEnd(28)} gpu compute ${f(e.gpu.compute)} vs ${f(rep.gpu.compute)}  host compute ${f(e.host.compute)} vs ` +
      `${f(rep.host.compute)}  ` +
      `gpu total ${f(gpuBytes(r.estimate))} vs ${f(r.reported.reduce((a, x) => a + reportedTotal(x.gpu), 0))}  process ` +
      `${r.processMiB ?? '-'}`
    )
  })
  process.stdout.write(`\n${table.join('\n')}\n`)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

// Placements where llama.cpp stages fewer CPU weights than the model assumes (see gpuComputeBytes): over, never under.
const STAGING_OVER = new Set(['q36-c16384-f16', 'm-c16384-q4-ub512', 'm-ot-down-only', 'm-ngl30'])
const within = (est: number, rep: number, rel: number, absMiB: number): boolean => Math.abs(est - rep) <= Math.max(rel * rep, absMiB * MIB)

describe('the estimate against llama-server built with CUDA (H200 recordings)', () => {
  it('puts exactly the reported weights, KV cache and recurrent state on the GPU and the host, for every placement', () => {
    expect(rows).toHaveLength(30)
    for (const r of rows) {
      const models = [r.estimate.model, r.estimate.draft].slice(0, r.reported.length)
      models.forEach((est, i) => {
        const rep = r.reported[i]!
        for (const part of ['weights', 'kv', 'recurrent'] as const) {
          expect(within(est!.gpu[part], rep.gpu[part], 0.01, 0.05), `${r.name} model ${i} gpu ${part}`).toBe(true)
          if (part !== 'weights')
            expect(within(est!.host[part], rep.host[part], 0.01, 0.05), `${r.name} model ${i} host ${part}`).toBe(true)
        }
        // llama.cpp's own count of host weights (the mmap buffer spans GPU tensors too), whole MiB.
        const hostWeights = r.reportedHostWeightsMiB[i]
        if (hostWeights !== undefined)
          expect(Math.abs(est!.host.weights / MIB - hostWeights), `${r.name} model ${i} host weights`).toBeLessThanOrEqual(1)
      })
    }
  })

  it('sizes the CUDA compute buffers within 15%, and over-estimates (never under) where llama.cpp stages less', () => {
    for (const r of rows) {
      const est = r.estimate.model
      const rep = r.reported[0]!
      if (STAGING_OVER.has(r.name)) {
        expect(est.gpu.compute, r.name).toBeGreaterThanOrEqual(rep.gpu.compute)
        expect(est.gpu.compute - rep.gpu.compute, r.name).toBeLessThanOrEqual(180 * MIB)
      } else
        expect(
          within(est.gpu.compute, rep.gpu.compute, 0.15, 1),
          `${r.name} gpu compute ${est.gpu.compute / MIB} vs ${rep.gpu.compute / MIB}`,
        ).toBe(true)
      expect(
        within(est.host.compute, rep.host.compute, 0.15, 1),
        `${r.name} host compute ${est.host.compute / MIB} vs ${rep.host.compute / MIB}`,
      ).toBe(true)
    }
  })

  it('gets the GPU total of every placement within 5%, and the process memory nvidia-smi saw within 5% with the CUDA runtime added', () => {
    let worst = 0
    for (const r of rows) {
      const loaded = [r.estimate.model, r.estimate.draft].slice(0, r.reported.length)
      const est = loaded.reduce((a, m) => a + (m ? m.gpu.weights + m.gpu.kv + m.gpu.recurrent + m.gpu.compute : 0), 0)
      const rep = r.reported.reduce((a, x) => a + reportedTotal(x.gpu), 0)
      expect(within(est, rep, 0.05, 2), `${r.name}: ${est / MIB} vs ${rep / MIB}`).toBe(true)
      if (r.processMiB !== null) {
        const withRuntime = gpuBytes(r.estimate) / MIB + CUDA_RUNTIME_MIB
        const error = withRuntime / r.processMiB - 1
        worst = Math.max(worst, Math.abs(error))
        expect(Math.abs(error), `${r.name}: ${withRuntime.toFixed(0)} vs ${r.processMiB} MiB`).toBeLessThan(0.05)
      }
    }
    process.stdout.write(`worst process-memory error with the runtime: ${(worst * 100).toFixed(1)}%\n`)
  })
})
