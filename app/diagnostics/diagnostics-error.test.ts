import { describe, expect, it } from 'vitest'
import { DiagnosticsError } from './diagnostics-error'

describe('a diagnostics error as a problem', () => {
  it('keeps the system’s words as details', () => {
    expect(
      new DiagnosticsError('Cannot save the diagnostics to /x/d.zip: choose another folder.', 'EACCES: permission denied').toProblem(),
    ).toEqual({
      kind: 'diagnostics',
      sentence: 'Cannot save the diagnostics to /x/d.zip: choose another folder.',
      details: 'EACCES: permission denied',
    })
  })
})
