import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HistoryStore } from '../../history/history-store'
import { historyRequest } from '../../../test/support/history/rows'
import { runCliInProcess } from '../../../test/helpers/cli-in-process'
import { parseSince } from './history'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-cli-history-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('llama-tray history', () => {
  it('says what will appear when the history is empty', async () => {
    const r = await runCliInProcess(['--home', home, 'history'])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('No requests in the usage history yet: requests through the endpoint (serve, or the app) are kept here.\n')
  })

  it('lists requests, days and profiles, filtered by profile and date', async () => {
    const store = HistoryStore.at(home)
    const now = Date.now()
    store.recordRequest(historyRequest({ time: now - 3 * 86_400_000, generatedTokens: 11 }))
    store.recordRequest(historyRequest({ time: now, generatedTokens: 22 }))
    store.recordRequest(historyRequest({ time: now, generatedTokens: 33, profileId: 'gpt', profileName: 'GPT' }))
    await store.close()
    const lines = (await runCliInProcess(['--home', home, 'history'])).stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^time\s+profile\s+status\s+prompt\s+cached\s+generated\s+prompt tok\/s\s+gen tok\/s\s+first token ms\s+ms$/)
    expect(lines).toHaveLength(4)
    const recent = JSON.parse((await runCliInProcess(['--home', home, 'history', '--since', '1d', '--profile', 'qwen', '--json'])).stdout)
    expect(recent.map((r: { generatedTokens: number }) => r.generatedTokens)).toEqual([22])
    const profiles = JSON.parse((await runCliInProcess(['--home', home, 'history', '--by', 'profile', '--json'])).stdout)
    expect(profiles.map((p: { profileId: string; generatedTokens: number }) => [p.profileId, p.generatedTokens])).toEqual([
      ['gpt', 33],
      ['qwen', 33],
    ])
  })

  it('refuses a bad --by, --since or export format in one sentence', async () => {
    expect((await runCliInProcess(['--home', home, 'history', '--by', 'week'])).stderr).toContain(
      '--by takes request, day or profile, not "week".',
    )
    expect((await runCliInProcess(['--home', home, 'history', '--since', 'yesterday'])).stderr).toContain('--since takes a date')
    const r = await runCliInProcess(['--home', home, 'history', 'export', '--format', 'xlsx', '--out', join(home, 'x')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('History export needs --format csv, json or md.')
  })

  it('reads --since as a local date, an ISO time or a number of days', () => {
    expect(parseSince('2026-11-30')).toBe(new Date(2026, 10, 30).getTime())
    expect(parseSince('2026-11-30T18:00:00Z')).toBe(Date.UTC(2026, 10, 30, 18))
    expect(parseSince('7d', 1_000_000_000_000)).toBe(1_000_000_000_000 - 7 * 86_400_000)
  })
})
