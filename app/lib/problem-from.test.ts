import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { problem } from '../contract/problem'
import { failed, failedFrom } from './failed'
import { problemFrom } from './problem-from'

describe('problemFrom', () => {
  it('lets a domain error say itself', () => {
    const err = Object.assign(new Error('ignored'), { toProblem: () => problem('model', 'gone: pull it again', { details: 'raw' }) })
    expect(problemFrom(err)).toEqual({ kind: 'model', sentence: 'Gone: pull it again.', details: 'raw' })
  })

  it('names the refused fields of a schema error, the raw issues behind Details', () => {
    const parsed = z.object({ port: z.number() }).safeParse({ port: 'x' })
    if (parsed.success) throw new Error('the schema accepted a string port')
    const p = problemFrom(parsed.error)
    expect(p.kind).toBe('input')
    expect(p.sentence).toMatch(/^Some values were refused \(port: .+\): correct them and try again\.$/)
    expect(p.details).toContain('"port"')
  })

  it('says an unexpected error is a bug, with its stack as details', () => {
    const err = new TypeError('cannot read properties of undefined (reading "id").')
    const p = problemFrom(err)
    expect(p).toMatchObject({
      kind: 'internal',
      sentence: 'Something went wrong: cannot read properties of undefined (reading "id"). Copy the details into a bug report.',
    })
    expect(p.details).toBe(err.stack)
    expect(problemFrom('thrown text')).toEqual({
      kind: 'internal',
      sentence: 'Something went wrong: thrown text. Copy the details into a bug report.',
      details: 'thrown text',
    })
  })

  it('wraps both as failed Results', () => {
    expect(failed('busy', 'a model is already being downloaded: wait for it to finish')).toEqual({
      ok: false,
      error: { kind: 'busy', sentence: 'A model is already being downloaded: wait for it to finish.' },
    })
    expect(failedFrom(new Error('boom'))).toMatchObject({ ok: false, error: { kind: 'internal' } })
  })
})
