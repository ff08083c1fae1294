import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../contract/server-state'
import { CompletionError } from './completion'
import { BenchCancelledError, BenchStartError } from './bench-launch'
import { TuneError } from './tune'
import { exitInfo } from '../supervisor/supervised-run'
import { serverStatus } from '../../test/helpers/server-status'

const errored: ServerStatus = serverStatus('errored', {
  profileId: 'tiny',
  exe: null,
  lastExit: exitInfo({ code: 1, signal: null }, { kind: 'model-missing', reason: 'the model file does not exist', hint: null }, [
    'llama_model_load: error loading model',
    'main: exiting due to model loading error',
  ]),
})

describe('bench errors as problems', () => {
  it('keeps the server’s last log lines behind a failed start', () => {
    expect(new BenchStartError('tiny did not start: the model file does not exist', errored).toProblem()).toEqual({
      kind: 'server',
      sentence: 'Tiny did not start: the model file does not exist.',
      details: 'llama-server ended with exit code 1\nllama_model_load: error loading model\nmain: exiting due to model loading error',
    })
  })

  it('says a cancel, a tune and a completion refusal in their sentence', () => {
    expect(new BenchCancelledError().toProblem()).toEqual({ kind: 'bench', sentence: 'Cancelled.' })
    expect(new TuneError('nothing fits: free some VRAM').toProblem()).toEqual({ kind: 'bench', sentence: 'Nothing fits: free some VRAM.' })
    expect(new CompletionError('the server answered 500').toProblem().kind).toBe('bench')
  })
})
