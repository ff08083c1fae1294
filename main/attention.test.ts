import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../app/contract/server-state'
import { problem } from '../app/contract/problem'
import type { Warning } from '../app/contract/warnings'
import { AttentionTracker } from './attention'
import { serverStatus } from '../test/helpers/server-status'

const status = <K extends ServerStatus['state']>(state: K, fields: Parameters<typeof serverStatus<K>>[1] = {}): ServerStatus =>
  serverStatus(state, { profileId: 'qwen', ...fields })
const exit = { code: 1, signal: null, reason: 'llama-server crashed (exit code 1)', hint: null, kind: 'crashed' as const, problem: null }
const warn = (id: string, level: Warning['level'] = 'warn'): Warning => ({
  id,
  level,
  headline: `The ${id} is off.`,
  reason: `Measured on ${id}.`,
  fix: null,
})

describe('AttentionTracker', () => {
  it('announces each crash transition once, and never a requested stop', () => {
    let now = 1000
    const t = new AttentionTracker(
      (id) => id ?? '?',
      () => now,
    )
    expect(t.onStatus(status('ready'))).toBeNull()
    expect(t.onStatus(status('backoff', { lastExit: exit, restartAt: 5000 }))).toEqual({
      title: 'qwen crashed',
      body: 'Llama-server crashed (exit code 1). Restarting in 4 s.',
      urgent: false,
    })
    expect(t.onStatus(status('backoff', { lastExit: exit, restartAt: 5000 }))).toBeNull()
    now = 9000
    // The problem's sentence as the supervisor wrote it, never rebuilt from the reason and the hint.
    const diagnosed = { ...exit, hint: 'check the log', problem: problem('server', 'llama-server crashed (exit code 1). Check the log.') }
    expect(t.onStatus(status('crashloop', { lastExit: diagnosed, restarts: 5 }))?.body).toBe(
      'Llama-server crashed (exit code 1). Check the log. Gave up after 5 restarts.',
    )
    expect(t.onStatus(status('stopping'))).toBeNull()
    expect(t.onStatus(status('stopped'))).toBeNull()
    expect(t.onStatus(status('errored', { lastExit: diagnosed }))).toEqual({
      title: 'qwen could not start',
      body: 'Llama-server crashed (exit code 1). Check the log.',
      urgent: true,
    })
  })

  it('announces a warning once while it lasts, spaced out, and not while the dashboard has focus', () => {
    let now = 0
    const t = new AttentionTracker(
      (id) => id ?? '?',
      () => now,
      60_000,
    )
    expect(t.onWarnings([warn('info-only', 'info')], false)).toBeNull()
    // A notification has no "Why" to click: the headline, then the reason.
    expect(t.onWarnings([warn('vram')], false)?.body).toBe('The vram is off. Measured on vram.')
    expect(t.onWarnings([warn('vram')], false)).toBeNull()
    expect(t.onWarnings([warn('vram'), warn('temp', 'error')], false)).toBeNull() // too soon after the last one
    now = 61_000
    expect(t.onWarnings([warn('vram'), warn('temp', 'error')], false)).toMatchObject({ title: 'Llama Tray: needs attention', urgent: true })
    now = 200_000
    expect(t.onWarnings([], false)).toBeNull()
    expect(t.onWarnings([warn('vram')], true)).toBeNull() // seen in the dashboard
    expect(t.onWarnings([warn('vram')], false)).toBeNull()
    expect(t.onWarnings([warn('cpu'), warn('disk')], false)?.body).toBe('The cpu is off. Measured on cpu. (+1 more in the dashboard)')
  })
})
