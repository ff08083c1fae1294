import { describe, expect, it } from 'vitest'
import { isProblem, isProblemSource, problem } from './problem'

describe('problem', () => {
  it('makes the message a sentence and keeps details and fix', () => {
    const fix = { label: 'Stop the server', run: { command: 'server:stop' }, cli: null } as const
    expect(problem('engine', 'b1 runs the server now: stop it first', { details: '  raw text\n', fix })).toEqual({
      kind: 'engine',
      sentence: 'B1 runs the server now: stop it first.',
      details: 'raw text',
      fix,
    })
  })

  it('leaves out empty details and a missing fix', () => {
    expect(problem('input', '--port needs a number', { details: '   ', fix: null })).toEqual({
      kind: 'input',
      sentence: '--port needs a number.',
    })
  })

  it('recognises a problem and a value that can say itself as one', () => {
    expect(isProblem(problem('fit', 'x'))).toBe(true)
    expect(isProblem('a string')).toBe(false)
    expect(isProblem({ sentence: 'no kind' })).toBe(false)
    expect(isProblemSource({ toProblem: () => problem('fit', 'x') })).toBe(true)
    expect(isProblemSource(new Error('plain'))).toBe(false)
  })
})
