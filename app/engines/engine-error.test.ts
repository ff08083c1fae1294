import { describe, expect, it } from 'vitest'
import { DamagedArchiveError, UnsafeArchiveError } from './archive-error'
import { EngineError } from './engine-error'

describe('engine errors as problems', () => {
  it('keeps EngineError.detail as the details', () => {
    const err = new EngineError(
      'GitHub did not answer: check the network, then try again.',
      'offline',
      null,
      'getaddrinfo ENOTFOUND api.github.com',
    )
    expect(err.toProblem()).toEqual({
      kind: 'network',
      sentence: 'GitHub did not answer: check the network, then try again.',
      details: 'getaddrinfo ENOTFOUND api.github.com',
    })
    expect(new EngineError('b1-cpu is not installed', 'unknown-engine').toProblem()).toEqual({
      kind: 'engine',
      sentence: 'B1-cpu is not installed.',
    })
  })

  it('keeps the entry and the reader’s words of a refused archive', () => {
    expect(new UnsafeArchiveError('a.zip', '../evil', 'would write outside its folder').toProblem()).toMatchObject({
      kind: 'engine',
      details: '../evil: would write outside its folder',
    })
    expect(new DamagedArchiveError('a.tar.gz', 'unexpected end of file').toProblem()).toMatchObject({
      kind: 'engine',
      sentence: 'Cannot read a.tar.gz (unexpected end of file).',
      details: 'unexpected end of file',
    })
  })
})
