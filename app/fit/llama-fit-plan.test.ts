import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LLAMA_FIT_RECORDINGS } from '../../test/helpers/paths'
import { parseLlamaFitPlan } from './llama-fit-plan'

const DIR = LLAMA_FIT_RECORDINGS
const read = (name: string): string => readFileSync(join(DIR, name), 'utf8')

// Recorded on an H200 (llama.cpp v0.5.0 with CUDA): Qwen3.6-35B-A3B's tensor table, -c 65536 -np 1 q4_0 KV,
// with --fit-target set so that 6652 MiB may be used (an 8 GB laptop GPU keeping 1536 MiB free).
describe("llama.cpp's own fit, read from what it prints", () => {
  it('llama-fit-params: the flags it prints and the plan in its log', () => {
    const plan = parseLlamaFitPlan(read('fitp-seed.err'), read('fitp-seed.out'))
    expect(plan).not.toBeNull()
    expect(plan?.outcome).toBe('fitted')
    expect(plan?.args.slice(0, 4)).toEqual(['-c', '65536', '-ngl', '41'])
    expect(plan?.args[4]).toBe('-ot')
    // blk.8 … blk.40: 33 layers' experts on the CPU, layer 8 only partly.
    expect(plan?.cpuExpertLayers).toBe(33)
    expect(plan?.partialLayer).toBe(true)
    expect(plan?.tookS).toBeCloseTo(9.92, 2)
    expect(plan?.projectedMiB).toBe(20770)
    expect(plan?.freeMiB).toBe(142563)
    expect(plan?.includesDraft).toBe(false)
  })

  it('a larger target moves one more layer to the CPU', () => {
    const plan = parseLlamaFitPlan('', read('fitp-seed-1024.out'))
    expect(plan?.cpuExpertLayers).toBe(32)
  })

  it("llama-server's load log: the device line, the time, and the draft counted", () => {
    const plain = parseLlamaFitPlan(read('llama-fit-seed.log'))
    expect(plain?.outcome).toBe('fitted')
    expect(plain?.devices).toEqual([{ id: 'CUDA0', name: 'NVIDIA H200', layers: 41, overflowing: 33, usedMiB: 6014, freeMiB: 136548 }])
    expect(plain?.cpuExpertLayers).toBe(33)
    expect(plain?.args).toEqual([])
    expect(plain?.tookS).toBeCloseTo(9.2, 2)
    const draft = parseLlamaFitPlan(read('llama-fit-seed-draft.log'))
    expect(draft?.includesDraft).toBe(true)
    expect(draft?.devices[0]?.overflowing).toBe(36)
    expect(draft?.devices[0]?.usedMiB).toBe(6023)
  })

  it('hand-picked offload that already fits: llama.cpp leaves it unchanged', () => {
    const plan = parseLlamaFitPlan(read('llama-fit-conflict.log'))
    expect(plan?.outcome).toBe('unchanged')
    expect(plan?.projectedMiB).toBe(5183)
    expect(plan?.devices).toEqual([])
  })

  it('a failure keeps its reason', () => {
    const log = [
      '0.00.2 I common_params_fit_impl: projected to use 20515 MiB of device memory vs. 7100 MiB of free device memory',
      '0.00.3 W common_fit_params: failed to fit params to free device memory: n_gpu_layers already set by user to 999, abort',
    ].join('\n')
    expect(parseLlamaFitPlan(log)).toMatchObject({
      outcome: 'failed',
      reason: 'n_gpu_layers already set by user to 999, abort',
      projectedMiB: 20515,
    })
  })

  it('a log without a fit (fit off, or below -lv 4) gives null', () => {
    expect(
      parseLlamaFitPlan(
        read('ours-ncmoe33.log')
          .split('\n')
          .filter((l) => !/fit/.test(l))
          .join('\n'),
      ),
    ).toBeNull()
    expect(parseLlamaFitPlan('main: server is listening on http://127.0.0.1:8080')).toBeNull()
  })
})
