import { describe, expect, it } from 'vitest'
import { FitError } from './fit-error'
import { GgufError } from './gguf-error'

describe('fit errors as problems', () => {
  it('says a fit error as its sentence', () => {
    expect(new FitError('no local model: the profile loads -hf user/model').toProblem()).toEqual({
      kind: 'fit',
      sentence: 'No local model: the profile loads -hf user/model.',
    })
  })

  it('keeps the file and the reason of a bad GGUF as details', () => {
    expect(new GgufError('/m/x.gguf', 'duplicate key "general.name"').toProblem()).toEqual({
      kind: 'model',
      sentence: '/m/x.gguf is not a usable GGUF model: duplicate key "general.name". Re-download it.',
      details: '/m/x.gguf: duplicate key "general.name"',
    })
  })
})
