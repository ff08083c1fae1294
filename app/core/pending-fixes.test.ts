import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../contract/server-state'
import type { Warning } from '../contract/warnings'
import { PendingFixes } from './pending-fixes'
import { serverStatus } from '../../test/helpers/server-status'

const status = (state: ServerStatus['state'], profileId: string | null = 'qwen'): ServerStatus => serverStatus(state, { profileId })
const mmap: Warning = {
  id: 'lint.mmap@qwen',
  level: 'warn',
  headline: 'Memory-mapped weights with experts on the CPU.',
  reason: '',
  fix: { label: 'Use -lm none', removeArgs: ['--mmap'], addArgs: ['-lm', 'none'] },
  profileId: 'qwen',
}

describe('PendingFixes', () => {
  it('keeps a fixed warning of the running profile, marked, until a launch after the fix is ready', () => {
    const pending = new PendingFixes()
    pending.record(mmap, status('ready'), 1000)
    // The advisor re-read the fixed profile: its warning is gone from the advisor, not from the view.
    const kept = pending.merge([], status('ready'), 500)
    expect(kept).toEqual([{ ...mmap, fix: null, appliesAfterRestart: true }])
    expect(pending.merge([mmap], status('loading'), 2000)).toHaveLength(1) // the restart loads
    expect(pending.merge([], status('ready'), 2000)).toEqual([])
  })

  it('keeps it through the stop of its own restart, and forgets it once the relaunch is ready', () => {
    const pending = new PendingFixes()
    pending.record(mmap, status('ready'), 1000)
    expect(pending.merge([], status('stopping'), 500, 'qwen')).toHaveLength(1)
    expect(pending.merge([], status('stopped', null), 500, 'qwen')).toEqual([{ ...mmap, fix: null, appliesAfterRestart: true }])
    expect(pending.merge([], status('loading'), 2000, 'qwen')).toHaveLength(1)
    expect(pending.merge([], status('ready'), 2000, 'qwen')).toEqual([])
  })

  it('keeps nothing for a profile that is not running, and forgets on a stop', () => {
    const pending = new PendingFixes()
    pending.record(mmap, status('stopped', null), 1000)
    expect(pending.merge([], status('ready'), 500)).toEqual([])
    pending.record(mmap, status('ready'), 1000)
    expect(pending.merge([], status('stopped', 'qwen'), 500)).toEqual([])
    expect(pending.merge([], status('ready'), 500)).toEqual([])
  })
})
