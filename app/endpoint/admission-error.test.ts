import { describe, expect, it } from 'vitest'
import { problem } from '../contract/problem'
import { AdmissionError } from './backend'
import { EndpointError } from './openai-error'

describe('endpoint errors as problems', () => {
  it('gives a user’s click the failed start’s own problem, details and all', () => {
    const start = problem('server', 'out of GPU memory loading the weights', { details: 'cudaMalloc failed' })
    expect(new AdmissionError('Profile "b" failed to start: …', 'profile_failed', start).toProblem()).toBe(start)
    expect(new AdmissionError('The server is shutting down; send it again.', 'shutting_down').toProblem()).toEqual({
      kind: 'server',
      sentence: 'The server is shutting down; send it again.',
    })
  })

  it('keeps the HTTP status and type behind Details', () => {
    expect(new EndpointError(400, 'invalid_request_error', 'the body is not JSON').toProblem()).toEqual({
      kind: 'input',
      sentence: 'The body is not JSON.',
      details: 'HTTP 400 invalid_request_error',
    })
  })
})
