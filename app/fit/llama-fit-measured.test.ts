import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LLAMA_FIT_RECORDINGS } from '../../test/helpers/paths'
import { buildFitReport } from './fit-report'
import { readGgufModel, type GgufModel } from './gguf-model'
import { parseLlamaArgs } from './llama-args'
import { LLAMA_FIT_MEASURED as M, fitTargetFor } from './llama-fit-measured'
import { parseLlamaFitPlan } from './llama-fit-plan'
import { qwen35SmallGguf, qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'

const DIR = LLAMA_FIT_RECORDINGS
const rows = new Map(
  readFileSync(join(DIR, 'launch.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => {
      const [name = '', ready, , after] = l.split('\t')
      return [name, { readyS: Number(ready), afterMiB: Number(after) }] as const
    }),
)
const row = (name: string) => {
  const r = rows.get(name)
  if (!r) throw new Error(`no row ${name}`)
  return r
}

const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-llama-fit-'))
let model: GgufModel
let draft: GgufModel
beforeAll(async () => {
  await writeSyntheticGguf(join(tmp, 'm.gguf'), qwen36MoeGguf())
  await writeSyntheticGguf(join(tmp, 'd.gguf'), qwen35SmallGguf())
  model = await readGgufModel(join(tmp, 'm.gguf'))
  draft = await readGgufModel(join(tmp, 'd.gguf'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const SEED = ['-m', 'M', '-ngl', '999', '-c', '65536', '-np', '1', '-ctk', 'q4_0', '-ctv', 'q4_0']

describe('ours vs llama.cpp’s fit for the seed’s setup on an 8 GB budget (H200 recordings)', () => {
  it('the figures the advisor quotes are the recorded ones', () => {
    expect(readFileSync(join(DIR, 'budget.txt'), 'utf8')).toMatch(/-fitt (\d+)/)
    expect(row('llama-fit-seed').afterMiB).toBe(M.llamaMiB)
    expect(row('llama-fit-seed-draft').afterMiB).toBe(M.llamaDraftMiB)
    expect(row(`ours-ncmoe${M.oursNCpuMoe}`).afterMiB).toBe(M.oursMiB)
    expect(row(`ours-draft-ncmoe${M.oursDraftNCpuMoe}`).afterMiB).toBe(M.oursDraftMiB)
    expect(row('llama-fit-seed').readyS).toBe(M.readyWithFitS)
    expect(row(`ours-ncmoe${M.oursNCpuMoe}`).readyS).toBe(M.readyHandPickedS)
    expect(parseLlamaFitPlan(readFileSync(join(DIR, 'llama-fit-seed.log'), 'utf8'))?.tookS).toBe(M.llamaFitS)
    // Ready to after the first request, for every launch: the growth llama.cpp's fit does not count.
    const summary = readFileSync(join(DIR, 'launch.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
    for (const [, , ready, after] of summary) expect(Number(after) - Number(ready)).toBe(M.firstRequestMiB)
  })

  it('llama.cpp’s plan went into the headroom; ours picked the largest placement that stayed out of it', () => {
    expect(M.llamaMiB).toBeGreaterThan(M.budgetMiB)
    expect(M.llamaDraftMiB).toBeGreaterThan(M.budgetMiB)
    // One step more on the GPU than ours would have gone over too (the search is tight, not timid).
    expect(row(`ours-ncmoe${M.oursNCpuMoe - 1}`).afterMiB).toBeGreaterThan(M.budgetMiB)
    expect(row(`ours-draft-ncmoe${M.oursDraftNCpuMoe - 1}`).afterMiB).toBeGreaterThan(M.budgetMiB)
  })

  it('our fit, from the GGUF alone, picks those placements and estimates them within 3 %', () => {
    const settings = parseLlamaArgs(SEED).settings
    const plain = buildFitReport({ model, draft: null, settings, freeVramMiB: 8188, headroomMiB: M.headroomMiB, vramSource: 'flag' })
    expect(plain.nCpuMoe).toBe(M.oursNCpuMoe)
    expect(Math.abs(plain.gpuProcessMiB / M.oursMiB - 1)).toBeLessThan(0.03)
    const withDraft = buildFitReport({
      model,
      draft,
      settings: parseLlamaArgs([...SEED, '-md', 'D', '-ngld', '99']).settings,
      freeVramMiB: 8188,
      headroomMiB: M.headroomMiB,
      vramSource: 'flag',
    })
    expect(withDraft.nCpuMoe).toBe(M.oursDraftNCpuMoe)
    expect(Math.abs(withDraft.gpuProcessMiB / M.oursDraftMiB - 1)).toBeLessThan(0.03)
    process.stdout.write(
      `\n[fit] ours ${plain.nCpuMoe}: est ${plain.gpuProcessMiB} vs measured ${M.oursMiB}; draft ${withDraft.nCpuMoe}: est ` +
        `${withDraft.gpuProcessMiB} ` +
        `vs ${M.oursDraftMiB}\n`,
    )
  })

  it('the target that keeps the headroom once the first request has run', () => {
    expect(fitTargetFor(1536)).toBe(1640)
    expect(fitTargetFor(1024)).toBe(1130)
  })
})
