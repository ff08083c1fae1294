import { describe, expect, it } from 'vitest'
import type { FlagProblem } from './flag-check'
import { ImportError } from './import-command'
import { ProfileGateError } from './profile-gate'
import { ProfileLaunchError } from './resolve-launch'
import { ProfileStoreError } from './store'

const removed: FlagProblem = {
  flag: '--no-mmap',
  index: 3,
  kind: 'rejected',
  message: 'mainline removed --no-mmap: use -lm none',
  replacement: ['-lm', 'none'],
}

describe('profile errors as problems', () => {
  it('keeps each rejected flag behind Details', () => {
    const launch = new ProfileLaunchError('flags that mainline rejects: edit the profile', [removed]).toProblem()
    expect(launch).toEqual({
      kind: 'profile',
      sentence: 'Flags that mainline rejects: edit the profile.',
      details: '--no-mmap: mainline removed --no-mmap: use -lm none',
    })
    expect(new ProfileGateError('The profile was not saved: mainline rejects --no-mmap.', [removed]).toProblem().details).toBe(
      '--no-mmap: mainline removed --no-mmap: use -lm none',
    )
  })

  it('says a pasted line it cannot read as input, and a missing profile as a profile problem', () => {
    expect(new ImportError('cannot read the command: a quote is not closed').toProblem()).toEqual({
      kind: 'input',
      sentence: 'Cannot read the command: a quote is not closed.',
    })
    expect(new ProfileStoreError('no profile "x"').toProblem()).toEqual({ kind: 'profile', sentence: 'No profile "x".' })
  })
})
