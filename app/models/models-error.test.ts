import { describe, expect, it } from 'vitest'
import { DownloadError } from '../lib/download/download-error'
import { ModelsError } from './models-error'

describe('model errors as problems', () => {
  it('lists what exists instead behind Details', () => {
    const err = new ModelsError('org/m has no Q9 file: choose one of its quants', 'no-match', ['Q4_K_M', 'Q8_0'])
    expect(err.toProblem()).toEqual({
      kind: 'model',
      sentence: 'org/m has no Q9 file: choose one of its quants.',
      details: 'Available: Q4_K_M, Q8_0',
    })
  })

  it('keeps a download’s address, status and the system’s words', () => {
    const err = new DownloadError('The Hub refused the download: try again later.', {
      kind: 'http',
      url: 'https://hub.example/m.gguf',
      status: 503,
      detail: 'Service Unavailable',
    })
    expect(err.toProblem()).toEqual({
      kind: 'network',
      sentence: 'The Hub refused the download: try again later.',
      details: 'https://hub.example/m.gguf\nHTTP 503: Service Unavailable',
    })
  })
})
