import { describe, expect, it } from 'vitest'
import type { HubFileInfo } from './hub-client'
import { ggufModels, pickGguf } from './pick-gguf'
import { ModelsError } from './models-error'

const f = (path: string, size = 10): HubFileInfo => ({ path, size, sha256: 'a'.repeat(64) })
const files = [
  f('README.md'),
  f('Qwen3-0.6B-Q4_K_M.gguf'),
  f('Qwen3-0.6B-Q8_0.gguf'),
  f('Qwen3-0.6B-UD-Q4_K_XL.gguf'),
  f('mmproj-Qwen3-0.6B-F16.gguf'),
  f('BF16/Qwen3-0.6B-BF16-00002-of-00002.gguf', 7),
  f('BF16/Qwen3-0.6B-BF16-00001-of-00002.gguf', 5),
]

function refusal(fn: () => unknown): ModelsError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ModelsError)
    return err as ModelsError
  }
  throw new Error('expected a refusal')
}

describe('pickGguf', () => {
  it('groups split parts as one model in order, and leaves out projectors', () => {
    const models = ggufModels(files)
    expect(models.map((m) => m.path)).toEqual([
      'Qwen3-0.6B-Q4_K_M.gguf',
      'Qwen3-0.6B-Q8_0.gguf',
      'Qwen3-0.6B-UD-Q4_K_XL.gguf',
      'BF16/Qwen3-0.6B-BF16-00001-of-00002.gguf',
    ])
    const split = models[3]!
    expect(split.parts.map((p) => p.path)).toEqual(['BF16/Qwen3-0.6B-BF16-00001-of-00002.gguf', 'BF16/Qwen3-0.6B-BF16-00002-of-00002.gguf'])
    expect(split).toMatchObject({ quant: 'BF16', sizeBytes: 12 })
  })

  it('matches the quant tag case-insensitively on the file name, a split set included', () => {
    expect(pickGguf('o/r', files, 'q8_0', null).path).toBe('Qwen3-0.6B-Q8_0.gguf')
    expect(pickGguf('o/r', files, 'ud-q4_k_xl', null).path).toBe('Qwen3-0.6B-UD-Q4_K_XL.gguf')
    expect(pickGguf('o/r', files, 'bf16', null).parts).toHaveLength(2)
    // Q4_K_M is not a prefix match of UD-Q4_K_XL, and Q4_K does not match Q4_K_M.
    expect(pickGguf('o/r', files, 'Q4_K_M', null).path).toBe('Qwen3-0.6B-Q4_K_M.gguf')
  })

  it('lists the quants that exist when none matches', () => {
    const e = refusal(() => pickGguf('o/r', files, 'IQ2_XXS', null))
    expect(e.kind).toBe('no-match')
    expect(e.available).toEqual(['Q4_K_M', 'Q8_0', 'UD-Q4_K_XL', 'BF16'])
    expect(e.message).toBe('o/r has no IQ2_XXS GGUF; it offers Q4_K_M, Q8_0, UD-Q4_K_XL, BF16 (pull one of them with o/r:<quant>).')
  })

  it('takes --file by path or name, and says which files exist otherwise', () => {
    expect(pickGguf('o/r', files, null, 'qwen3-0.6b-bf16-00002-of-00002.gguf').path).toBe('BF16/Qwen3-0.6B-BF16-00001-of-00002.gguf')
    expect(refusal(() => pickGguf('o/r', files, null, 'x.gguf')).message).toMatch(
      /^o\/r has no file x\.gguf; it has Qwen3-0\.6B-Q4_K_M\.gguf, /,
    )
  })

  it('without a quant: the only model, else Q4_K_M, else asks which, listing them', () => {
    expect(pickGguf('o/r', [f('a-Q5_K_S.gguf')], null, null).path).toBe('a-Q5_K_S.gguf')
    expect(pickGguf('o/r', files, null, null).path).toBe('Qwen3-0.6B-Q4_K_M.gguf')
    const e = refusal(() => pickGguf('o/r', [f('a-Q5_K_S.gguf'), f('a-Q6_K.gguf')], null, null))
    expect(e).toMatchObject({ kind: 'ambiguous', available: ['Q5_K_S', 'Q6_K'] })
    expect(refusal(() => pickGguf('o/r', [f('a-Q4_K_M.gguf'), f('sub/a-Q4_K_M.gguf')], 'Q4_K_M', null)).message).toMatch(
      /several Q4_K_M GGUFs .*choose one with --file NAME/,
    )
    expect(refusal(() => pickGguf('o/r', [f('README.md')], null, null)).kind).toBe('no-gguf')
  })
})
