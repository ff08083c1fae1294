import { resolve } from 'node:path'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { deviceTotal, estimateLaunch } from './estimate'
import { FitError } from './fit-error'
import { readGgufModel, type GgufModel } from './gguf-model'
import { CACHE_TYPES, cudaPaddingBytes } from './ggml-types'
import { parseLlamaArgs } from './llama-args'
import { DEFAULT_SETTINGS } from './launch-settings'
import { MODELS as MODELS_DIR } from '../../test/helpers/paths'

let target: GgufModel
let draft: GgufModel
beforeAll(async () => {
  target = await readGgufModel(resolve(MODELS_DIR, 'tiny-target.gguf'))
  draft = await readGgufModel(resolve(MODELS_DIR, 'tiny-draft-qwen35.gguf'))
})

const settingsArb = fc.record({
  ctx: fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: null }),
  parallel: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
  kvUnified: fc.option(fc.boolean(), { nil: null }),
  cacheTypeK: fc.constantFrom(...CACHE_TYPES),
  cacheTypeV: fc.constantFrom(...CACHE_TYPES),
  nGpuLayers: fc.integer({ min: 0, max: 999 }),
  nCpuMoe: fc.integer({ min: 0, max: 60 }),
  cpuMoe: fc.boolean(),
  ubatch: fc.integer({ min: 1, max: 4096 }),
})

describe('estimateLaunch', () => {
  it('never loses or invents weights: GPU + host weights are the tensor table (plus CUDA row padding on the GPU), whatever the placement', () => {
    const all = target.tensors.reduce((a, t) => a + Math.ceil(t.bytes / 32) * 32, 0)
    const allOnGpu = target.tensors.reduce((a, t) => a + Math.ceil((t.bytes + cudaPaddingBytes(t.typeId, t.shape)) / 32) * 32, 0)
    fc.assert(
      fc.property(settingsArb, (s) => {
        const e = estimateLaunch(target, null, { ...DEFAULT_SETTINGS, ...s })
        const sum = e.model.gpu.weights + e.model.host.weights
        expect(sum).toBeGreaterThanOrEqual(all)
        expect(sum).toBeLessThanOrEqual(allOnGpu)
        if (s.nGpuLayers === 0) {
          expect(sum).toBe(all)
          expect(deviceTotal(e.model.gpu)).toBe(0)
        }
        for (const d of [e.model.gpu, e.model.host]) for (const v of Object.values(d)) expect(v).toBeGreaterThanOrEqual(0)
      }),
      // 2,000 placements took 55 s on 2 loaded cores and hit the timeout; 500 took 12.6 s there.
      { numRuns: 500 },
    )
  }, 120_000)

  it('more experts on the CPU never add GPU weights, and move exactly one layer of experts per step', () => {
    const experts0 = target.tensors.filter((t) => t.expert && t.layer === 0)
    const layerExperts = experts0.reduce((a, t) => a + Math.ceil(t.bytes / 32) * 32, 0)
    const layerExpertsOnGpu = experts0.reduce((a, t) => a + Math.ceil((t.bytes + cudaPaddingBytes(t.typeId, t.shape)) / 32) * 32, 0)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 39 }), (n) => {
        const a = estimateLaunch(target, null, { ...DEFAULT_SETTINGS, ctx: 4096, nCpuMoe: n })
        const b = estimateLaunch(target, null, { ...DEFAULT_SETTINGS, ctx: 4096, nCpuMoe: n + 1 })
        expect(a.model.gpu.weights - b.model.gpu.weights).toBe(layerExpertsOnGpu)
        expect(b.model.host.weights - a.model.host.weights).toBe(layerExperts)
      }),
    )
  })

  it('the KV cache grows linearly with the context (in steps of 256) and counts only attention layers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (k) => {
        const e = estimateLaunch(target, null, { ...DEFAULT_SETTINGS, ctx: k * 256, parallel: 1 })
        // 10 attention layers × (64 K + 64 V) f16 values per cell.
        expect(e.model.gpu.kv).toBe(k * 256 * 10 * 256)
      }),
    )
  })

  it('recurrent state is per slot and independent of the context', () => {
    const one = estimateLaunch(target, null, { ...DEFAULT_SETTINGS, ctx: 4096, parallel: 1 })
    const three = estimateLaunch(target, null, { ...DEFAULT_SETTINGS, ctx: 65536, parallel: 3 })
    expect(three.model.gpu.recurrent).toBe(3 * one.model.gpu.recurrent)
    expect(one.model.gpu.recurrent).toBe(30 * (target.recurrentRBytes + target.recurrentSBytes))
  })

  it('the draft gets its own -ngld, -cd and cache types', () => {
    const s = parseLlamaArgs([
      '-m',
      'x.gguf',
      '-c',
      '8192',
      '-np',
      '1',
      '-md',
      'd.gguf',
      '-ngld',
      '0',
      '-cd',
      '2048',
      '-ctkd',
      'q8_0',
    ]).settings
    const e = estimateLaunch(target, draft, s)
    expect(e.draft && deviceTotal(e.draft.gpu)).toBe(0)
    expect(e.draftContext?.ctx).toBe(2048)
    expect(e.draft?.host.kv).toBe(2048 * 1 * (68 + 128))
  })
})

describe('parseLlamaArgs', () => {
  it('reads spellings, = forms, -ot lists and the draft', () => {
    const p = parseLlamaArgs([
      '-m',
      'a.gguf',
      '--ctx-size=65536',
      '-np',
      '1',
      '-ctk',
      'q4_0',
      '--cache-type-v',
      'q4_0',
      '-ngl',
      'all',
      '--n-cpu-moe',
      '34',
      '-ot',
      'exps=CPU',
      '-fa',
      '-md',
      'd.gguf',
      '-ngld',
      '99',
      '--jinja',
    ])
    expect(p.model).toBe('a.gguf')
    expect(p.settings).toMatchObject({
      ctx: 65536,
      parallel: 1,
      cacheTypeK: 'q4_0',
      cacheTypeV: 'q4_0',
      nGpuLayers: 999,
      nCpuMoe: 34,
      overrideTensors: ['exps=CPU'],
      flashAttn: 'on',
    })
    expect(p.settings.draft).toMatchObject({ path: 'd.gguf', nGpuLayers: 99, ctx: null, cacheTypeK: 'f16' })
  })

  it('refuses values it cannot estimate with a clear FitError', () => {
    expect(() => parseLlamaArgs(['-ctk', 'turbo4'])).toThrow(FitError)
    expect(() => parseLlamaArgs(['-c', 'lots'])).toThrow(/-c needs a whole number/)
    expect(() => parseLlamaArgs(['-np'])).toThrow(/needs a value/)
  })

  it('never throws anything but a FitError on random argument vectors', () => {
    const token = fc.oneof(
      fc.constantFrom(
        '-c',
        '-np',
        '-ctk',
        '-ngl',
        '--n-cpu-moe',
        '-ot',
        '-md',
        '-fa',
        '-ub',
        '-kvu',
        '--cpu-moe',
        'q4_0',
        '12',
        '-1',
        'x=CPU',
      ),
      fc.string(),
    )
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), (args) => {
        try {
          parseLlamaArgs(args)
        } catch (err) {
          expect(err).toBeInstanceOf(FitError)
        }
      }),
      { numRuns: 10_000 },
    )
  })
})
