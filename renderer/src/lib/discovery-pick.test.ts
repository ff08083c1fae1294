import { describe, expect, it } from 'vitest'
import type { DiscoveredModel, Discovery } from '../../../app/contract/profile'
import { defaultPick, draftsOf, formatModelSize } from './discovery-pick'

const m = (id: string, fileMiB: number, extra: Partial<DiscoveredModel> = {}): DiscoveredModel => ({
  id,
  path: `/m/${id}.gguf`,
  fileMiB,
  architecture: 'qwen3moe',
  quantisation: 'Q4_K_M',
  layers: 48,
  experts: 128,
  trainingContext: 40960,
  looksLikeDraft: false,
  source: 'LM Studio',
  problem: null,
  ...extra,
})

const bin = (id: string) => ({ id, path: `/bin/${id}`, fork: null, version: null, source: 'PATH' })

describe('defaultPick', () => {
  it('takes the first binary, the largest readable non-draft model and the smallest draft', () => {
    const d: Discovery = {
      binaries: [bin('b1'), bin('b2')],
      models: [
        m('small', 4000),
        m('huge-broken', 90000, { problem: 'truncated header' }),
        m('big', 20000),
        m('draft-b', 900, { looksLikeDraft: true }),
        m('draft-a', 500, { looksLikeDraft: true }),
      ],
      searched: [],
    }
    expect(defaultPick(d)).toEqual({ binaryId: 'b1', modelId: 'big', draftModelId: 'draft-a' })
  })

  it('offers a draft only for the model it is draft-sized for (draftFor), not for another model found', () => {
    const d: Discovery = {
      binaries: [bin('b1')],
      models: [
        m('qwen', 20000),
        m('llama', 30000, { architecture: 'llama' }),
        m('qwen-draft', 500, { looksLikeDraft: true, draftFor: ['qwen'] }),
      ],
      searched: [],
    }
    expect(defaultPick(d)).toEqual({ binaryId: 'b1', modelId: 'llama', draftModelId: null })
    expect(draftsOf(d, 'llama')).toEqual([])
    expect(draftsOf(d, 'qwen').map((x) => x.id)).toEqual(['qwen-draft'])
  })

  it('picks nothing it cannot use: no draft without a target, nulls on empty results', () => {
    expect(defaultPick({ binaries: [], models: [m('d', 500, { looksLikeDraft: true })], searched: ['/x'] })).toEqual({
      binaryId: null,
      modelId: null,
      draftModelId: null,
    })
    expect(defaultPick({ binaries: [], models: [], searched: [] })).toEqual({ binaryId: null, modelId: null, draftModelId: null })
  })
})

describe('formatModelSize', () => {
  it('shows GB for real models and MB for tiny ones', () => {
    expect(formatModelSize(19_073.5)).toBe('20.0 GB')
    expect(formatModelSize(10)).toBe('10.5 MB')
  })
})
