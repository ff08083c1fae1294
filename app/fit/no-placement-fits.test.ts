import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'
import { readGgufModel, type GgufModel } from './gguf-model'
import { noPlacementFits, noPlacementProblem } from './no-placement-fits'
import { saferPlacement } from './safer-placement'

let model: GgufModel
beforeAll(async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'llama-tray-nofit-')), 'Qwen3.6-35B-A3B-Q4_K_M.gguf')
  await writeSyntheticGguf(path, qwen36MoeGguf())
  model = await readGgufModel(path)
})

const ARGS = ['-m', 'Qwen3.6-35B-A3B-Q4_K_M.gguf', '-ngl', '999', '--n-cpu-moe', '10', '-c', '8192', '-np', '1']

describe('when no placement fits the GPU', () => {
  it('says the numbers and what is left, in one short sentence (an H200 with 900 MiB left by another program)', () => {
    const fit = { moe: true, neededMiB: 2400, oneLayerMiB: 1500, gpuLayers: 41, freeVramMiB: 900, headroomMiB: 512 }
    const { sentence, details } = noPlacementProblem(fit, null)
    expect(sentence).toBe(
      'Even with every expert on the CPU it needs about 2,400 MiB and 900 MiB are free: close other GPU programs or run it on the CPU with -ngl 0.',
    )
    expect(sentence.split(':')[0]!.length).toBeLessThanOrEqual(100)
    expect(sentence).not.toMatch(/n-cpu-moe/)
    expect(details).toContain('-ngl 41 it needs about 2,400 MiB')
    expect(details).toContain('with one layer on the GPU about 1,500 MiB')
    expect(details).toContain('512 MiB are kept as headroom')
  })

  it('names the biggest GPU program when one is known, and speaks of one layer for a dense model', () => {
    const fit = { moe: false, neededMiB: 9000, oneLayerMiB: 1200, gpuLayers: 33, freeVramMiB: 300, headroomMiB: 512 }
    expect(noPlacementProblem(fit, 'blender').sentence).toBe(
      'Even with one layer on the GPU it needs about 1,200 MiB and 300 MiB are free: close blender or run it on the CPU with -ngl 0.',
    )
  })

  it('the numbers come from the fit: more than the free memory, even at one layer, exactly when the retry finds nothing', () => {
    const budget = { freeVramMiB: 900, headroomMiB: 512 }
    expect(saferPlacement(ARGS, model, null, budget)).toBeNull()
    const fit = noPlacementFits(ARGS, model, null, budget)
    expect(fit.moe).toBe(true)
    expect(fit.gpuLayers).toBe(model.blockCount + 1)
    expect(fit.neededMiB).toBeGreaterThan(fit.oneLayerMiB)
    expect(fit.oneLayerMiB).toBeGreaterThan(budget.freeVramMiB - budget.headroomMiB)
    // With room for the one-layer placement, the retry finds a placement.
    expect(saferPlacement(ARGS, model, null, { freeVramMiB: fit.oneLayerMiB + 512, headroomMiB: 512 })).not.toBeNull()
    // The Qwen3.6 35B-A3B at -ngl 999 -c 8192 on an H200 that another program left 900 MiB of.
    expect(noPlacementProblem(fit, null).sentence).toBe(
      'Even with every expert on the CPU it needs about 2,588 MiB and 900 MiB are free: close other GPU programs or run it on the CPU with -ngl 0.',
    )
  })
})
