import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FitError } from './fit-error'
import { expertLayers, readGgufModel } from './gguf-model'
import { GGML_TYPE_ID } from './ggml-types'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'
import { MODELS as MODELS_DIR } from '../../test/helpers/paths'

const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-fit-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('readGgufModel on the tiny fixtures', () => {
  it('reads the hybrid MoE target: 10 attention and 30 Gated-DeltaNet layers, experts in every layer', async () => {
    const m = await readGgufModel(resolve(MODELS_DIR, 'tiny-target.gguf'))
    expect(m.architecture).toBe('qwen35moe')
    expect(m.layers.filter((l) => l.kind === 'attention').map((l) => l.index)).toEqual([3, 7, 11, 15, 19, 23, 27, 31, 35, 39])
    expect(m.layers.filter((l) => l.kind === 'recurrent')).toHaveLength(30)
    expect(m.layers[3]).toMatchObject({ kvEmbdK: 64, kvEmbdV: 64 })
    expect(expertLayers(m)).toHaveLength(40)
    expect(m.tensors.filter((t) => t.expert)).toHaveLength(120)
    // llama.cpp's n_embd_r and n_embd_s: (4-1)·(1024+2·256) and 256·1024 floats.
    expect(m.recurrentRBytes).toBe(3 * 1536 * 4)
    expect(m.recurrentSBytes).toBe(256 * 1024 * 4)
    expect(m.trainingContext).toBe(16384)
    expect(m.vocab).toBe(8192)
  })

  it('reads the MTP target (its next-token layer has no KV in the main context) and the dense draft', async () => {
    const mtp = await readGgufModel(resolve(MODELS_DIR, 'tiny-target-mtp.gguf'))
    expect(mtp.nextnLayers).toBe(1)
    expect(mtp.layers[40]?.kind).toBe('nextn')
    expect(mtp.layers.filter((l) => l.kind === 'attention')).toHaveLength(10)
    const draft = await readGgufModel(resolve(MODELS_DIR, 'tiny-draft.gguf'))
    expect(draft.architecture).toBe('qwen3')
    expect(draft.layers.every((l) => l.kind === 'attention')).toBe(true)
    expect(draft.recurrentSBytes).toBe(0)
  })
})

describe('bad input gives a FitError with a clear message', () => {
  const expectFitError = async (path: string, pattern: RegExp): Promise<void> => {
    const err = await readGgufModel(path).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(FitError)
    expect((err as Error).message).toMatch(pattern)
  }

  it('a missing file, a folder, a non-GGUF file, an empty file', async () => {
    await expectFitError(join(tmp, 'nope.gguf'), /does not exist/)
    await expectFitError(tmp, /not a file/)
    writeFileSync(join(tmp, 'text.gguf'), 'this is a text file, not a model at all\n')
    await expectFitError(join(tmp, 'text.gguf'), /not a GGUF file/)
    writeFileSync(join(tmp, 'empty.gguf'), '')
    await expectFitError(join(tmp, 'empty.gguf'), /too small/)
  })

  it('truncated copies of a real model, at every cut', async () => {
    const whole = readFileSync(resolve(MODELS_DIR, 'tiny-draft.gguf'))
    for (const cut of [30, 100, 4096, 200_000, 260_100, whole.length - 1]) {
      const p = join(tmp, `cut-${cut}.gguf`)
      writeFileSync(p, whole.subarray(0, cut))
      await expectFitError(p, /truncated|corrupt/)
    }
  })

  it('an unknown architecture names the known ones', async () => {
    const p = join(tmp, 'bogus.gguf')
    await writeSyntheticGguf(p, {
      metadata: { 'general.architecture': 'bogusformer', 'bogusformer.block_count': 1 },
      tensors: [{ name: 'token_embd.weight', shape: [32, 8], typeId: GGML_TYPE_ID.f32 as number }],
    })
    await expectFitError(p, /unknown architecture "bogusformer".*qwen35moe/)
  })
})
