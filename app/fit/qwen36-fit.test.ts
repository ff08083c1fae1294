import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFitReport } from './fit-report'
import { readGgufModel, type GgufModel } from './gguf-model'
import { parseLlamaArgs } from './llama-args'
import { qwen35SmallGguf, qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'

const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-fit-q36-'))
let model: GgufModel
let draft: GgufModel
const modelPath = join(tmp, 'Qwen3.6-35B-A3B-Q4_K_M.gguf')
const draftPath = join(tmp, 'Qwen3.5-0.8B-Q4_K_M.gguf')

beforeAll(async () => {
  await writeSyntheticGguf(modelPath, qwen36MoeGguf())
  await writeSyntheticGguf(draftPath, qwen35SmallGguf())
  model = await readGgufModel(modelPath)
  draft = await readGgufModel(draftPath)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

// The seed's command (Seed 000, SEED_4060_QWEN36 in app/profiles/seed-commands.ts), on an 8 GB laptop GPU.
const SEED = [
  '-m',
  'M',
  '-ngl',
  '999',
  '--n-cpu-moe',
  '34',
  '-c',
  '65536',
  '-np',
  '1',
  '-ctk',
  'q4_0',
  '-ctv',
  'q4_0',
  '-md',
  'D',
  '-ngld',
  '99',
]

describe('a synthetic GGUF with the real Qwen3.6-35B-A3B shapes', () => {
  it('is a ~20 GB model on paper, sparse on disk, with the seed notes’ shapes', () => {
    const st = statSync(modelPath)
    expect(st.size / 1e9).toBeGreaterThan(19)
    expect(st.size / 1e9).toBeLessThan(23)
    expect(st.blocks * 512).toBeLessThan(64 * 1024 * 1024)
    expect(model.layers.filter((l) => l.kind === 'attention')).toHaveLength(10)
    expect(model.layers.filter((l) => l.kind === 'recurrent')).toHaveLength(30)
    expect(model.recurrentSBytes).toBe(32 * 128 * 128 * 4)
  })

  it('gives the seed’s figures: KV ~360 MiB at 64K with q4_0, ~0.5 GB of experts per --n-cpu-moe step', () => {
    const r = buildFitReport({
      model,
      draft,
      settings: parseLlamaArgs(SEED).settings,
      freeVramMiB: null,
      headroomMiB: 1536,
      vramSource: 'none',
    })
    expect(r.gpu.kvMiB).toBe(360)
    const step = buildFitReport({
      model,
      draft: null,
      settings: { ...parseLlamaArgs(SEED).settings, nCpuMoe: 33 },
      freeVramMiB: null,
      headroomMiB: 0,
      vramSource: 'none',
    })
    const moved = step.gpu.weightsMiB - r.gpu.weightsMiB
    expect(moved).toBeGreaterThan(400)
    expect(moved).toBeLessThan(560)
    process.stdout.write(
      `\nseed placement (--n-cpu-moe 34): ` +
        `${JSON.stringify({ gpu: r.gpu, draftGpu: r.draft?.gpu, totalGpu: r.total.gpu, totalHost: r.total.host })}\n`,
    )
  })

  it('picks --n-cpu-moe for 8 GB with 1.5 GB headroom; the seed found 34 by trial and error', () => {
    const found: string[] = []
    for (const free of [8192, 8188 - 240]) {
      const r = buildFitReport({
        model,
        draft,
        settings: parseLlamaArgs(SEED).settings,
        freeVramMiB: free,
        headroomMiB: 1536,
        vramSource: 'flag',
      })
      expect(r.fits).toBe(true)
      expect(r.total.gpu.totalMiB).toBeLessThanOrEqual(free - 1536)
      // One step fewer would not fit: the answer is the smallest.
      const before = r.candidates[r.candidates.length - 2]
      expect(before?.fits).toBe(false)
      expect(Math.abs(r.nCpuMoe - 34)).toBeLessThanOrEqual(3)
      found.push(`free ${free} MiB → --n-cpu-moe ${r.nCpuMoe} (GPU ${r.total.gpu.totalMiB} MiB of ${r.budgetMiB})`)
    }
    process.stdout.write(`\n${found.join('\n')}\n`)
  })
  it('free VRAM under the headroom: the note says so, with no budget below zero', () => {
    const r = buildFitReport({
      model,
      draft,
      settings: parseLlamaArgs(SEED).settings,
      freeVramMiB: 740,
      headroomMiB: 1536,
      vramSource: 'flag',
    })
    expect(r.fits).toBe(false)
    const note = r.notes.find((n) => n.startsWith('nothing fits'))
    expect(note).toMatch(/^nothing fits: 740 MiB of VRAM is free, less than the 1536 MiB headroom, and even with every expert on the CPU/)
    expect(r.notes.join(' ')).not.toMatch(/-\d+(\.\d+)? MiB/)
  })
})
