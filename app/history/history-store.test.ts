import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HistoryStore } from './history-store'
import { HISTORY_SCHEMA_VERSION } from './history-schema'
import { HistoryDb } from './history-db'
import { historyRequest } from '../../test/support/history/rows'

let home: string
const stores: HistoryStore[] = []
const open = (options: ConstructorParameters<typeof HistoryStore>[1] = {}): HistoryStore => {
  const s = HistoryStore.at(home, options)
  stores.push(s)
  return s
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-history-'))
})
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close()
  await rm(home, { recursive: true, force: true })
})

const day = (iso: string): number => new Date(`${iso}T12:00:00`).getTime()

describe('HistoryStore', () => {
  it('keeps every figure of a request, under the contract names', async () => {
    const store = open()
    const request = historyRequest({ draftTokens: 30, draftAccepted: 21, energyJ: 12.5, error: null })
    store.recordRequest(request)
    expect(await store.listRequests({ sinceMs: null, profileId: null })).toEqual([request])
  })

  it('writes at most a second behind, without a flush', async () => {
    const store = open()
    store.recordRequest(historyRequest())
    const reader = new HistoryStore(join(home, 'history.sqlite'))
    stores.push(reader)
    // Read by a second store (as another process would): it sees the row once the first store's timer wrote it.
    await expect
      .poll(async () => (await reader.listRequests({ sinceMs: null, profileId: null })).length, { timeout: 10_000, interval: 100 })
      .toBe(1)
  })

  it('sums days and profiles to the rows', async () => {
    const store = open()
    const rows = [
      historyRequest({ time: day('2026-11-01'), promptTokens: 10, generatedTokens: 5 }),
      historyRequest({ time: day('2026-11-01'), promptTokens: 20, generatedTokens: 7, profileId: 'gpt', profileName: 'GPT OSS' }),
      historyRequest({ time: day('2026-11-02'), promptTokens: 30, generatedTokens: 9, status: 500, error: 'boom' }),
    ]
    for (const r of rows) store.recordRequest(r)
    const days = await store.listDays({ sinceMs: null, profileId: null })
    expect(days.map((d) => [d.day, d.profileId, d.requests, d.promptTokens, d.generatedTokens, d.errors])).toEqual([
      ['2026-11-01', 'gpt', 1, 20, 7, 0],
      ['2026-11-01', 'qwen', 1, 10, 5, 0],
      ['2026-11-02', 'qwen', 1, 30, 9, 1],
    ])
    const profiles = await store.listProfiles({ sinceMs: null, profileId: null })
    expect(profiles.map((p) => [p.profileId, p.requests, p.generatedTokens])).toEqual([
      ['gpt', 1, 7],
      ['qwen', 2, 14],
    ])
    expect((await store.listDays({ sinceMs: day('2026-11-02') - 12 * 3600_000, profileId: 'qwen' })).map((d) => d.day)).toEqual([
      '2026-11-02',
    ])
  })

  it('weighs a day’s speed by tokens: total tokens over total time', async () => {
    const store = open()
    store.recordRequest(historyRequest({ time: day('2026-11-01'), generatedTokens: 100, generationPerSecond: 50 })) // 2 s
    store.recordRequest(historyRequest({ time: day('2026-11-01'), generatedTokens: 100, generationPerSecond: 25 })) // 4 s
    const [d] = await store.listDays({ sinceMs: null, profileId: null })
    expect(d!.generationPerSecond).toBeCloseTo(200 / 6, 6)
  })

  it('rolls requests past the retention into their days, never dropping a count', async () => {
    const now = day('2026-12-04')
    const store = open({ now: () => now, retention: { keepMonths: 12, maxBytes: 1e9 } })
    store.recordRequest(historyRequest({ time: day('2025-11-30'), generatedTokens: 40, generationPerSecond: 20 }))
    store.recordRequest(historyRequest({ time: day('2025-11-30'), generatedTokens: 60, generationPerSecond: 30 }))
    store.recordRequest(historyRequest({ time: day('2026-11-30'), generatedTokens: 7 }))
    await store.flush() // the first flush applies the retention after writing
    const before = await store.listDays({ sinceMs: null, profileId: null })
    // A later process: the old requests are gone one by one but their day is whole.
    expect((await store.listRequests({ sinceMs: null, profileId: null })).map((r) => r.generatedTokens)).toEqual([7])
    expect(before.map((d) => [d.day, d.requests, d.generatedTokens])).toEqual([
      ['2025-11-30', 2, 100],
      ['2026-11-30', 1, 7],
    ])
    expect(before[0]!.generationPerSecond).toBeCloseTo(100 / 4, 6) // 40 tokens in 2 s, 60 in 2 s
  })

  it('follows the retention setting, read at each pass: 3 months rolls up a request that 12 would keep', async () => {
    const now = day('2026-12-04')
    let months = 12
    const store = open({ now: () => now, keepMonths: () => months })
    store.recordRequest(historyRequest({ time: day('2026-06-01'), generatedTokens: 9 }))
    await store.flush()
    expect((await store.listRequests({ sinceMs: null, profileId: null })).map((r) => r.generatedTokens)).toEqual([9])
    await store.close()
    months = 3 // the user changed the setting; the next store (the next start) applies it
    const next = open({ now: () => now, keepMonths: () => months })
    expect(await next.listRequests({ sinceMs: null, profileId: null })).toEqual([])
    expect((await next.listDays({ sinceMs: null, profileId: null })).map((d) => [d.day, d.generatedTokens])).toEqual([['2026-06-01', 9]])
  })

  it('keeps the file under its size cap by rolling up the oldest days first', async () => {
    const now = day('2026-12-04')
    const seed = open({ now: () => now, retention: { keepMonths: 12, maxBytes: 1e9 } })
    for (let d = 1; d <= 20; d++)
      for (let i = 0; i < 200; i++)
        seed.recordRequest(historyRequest({ time: day(`2026-11-${String(d).padStart(2, '0')}`) + i, error: 'x'.repeat(100) }))
    await seed.close()
    const capped = open({ now: () => now, retention: { keepMonths: 12, maxBytes: 400 * 1024 } })
    const days = await capped.listDays({ sinceMs: null, profileId: null })
    expect(days).toHaveLength(20)
    expect(days.every((d) => d.requests === 200)).toBe(true)
    const left = await capped.listRequests({ sinceMs: null, profileId: null })
    expect(left.length).toBeGreaterThan(0)
    expect(left.length).toBeLessThan(4000)
    expect(new Date(left[0]!.time).getDate()).toBeGreaterThan(1) // the oldest went first
  })

  it('records a session’s start, ready and stop under one key', async () => {
    const store = open()
    store.recordSession({
      key: 's1',
      kind: 'server',
      profileId: 'qwen',
      profileName: 'Qwen',
      engine: 'mainline',
      engineVersion: 'b6000',
      model: 'm.gguf',
      driverVersion: '580.1',
      launchDigest: 'abc',
      startedAt: 1000,
      readyAt: null,
      stoppedAt: null,
      ended: 'running',
      loadMs: null,
      placementRetry: false,
      generationPerSecond: null,
      promptPerSecond: null,
    })
    await store.flush()
    store.recordSession({ key: 's1', readyAt: 5000, loadMs: 4000 })
    store.recordSession({ key: 's1', stoppedAt: 9000, ended: 'stopped' })
    const [s] = await store.listSessions({ sinceMs: null, profileId: null })
    expect(s).toMatchObject({
      key: 's1',
      startedAt: 1000,
      readyAt: 5000,
      loadMs: 4000,
      stoppedAt: 9000,
      ended: 'stopped',
      placementRetry: false,
    })
  })

  it('marks engine, driver and profile changes between a profile’s sessions', async () => {
    const store = open()
    const base = {
      kind: 'server' as const,
      profileId: 'qwen',
      profileName: 'Qwen',
      engine: 'mainline',
      model: 'm.gguf',
      readyAt: null,
      stoppedAt: null,
      ended: 'stopped' as const,
      loadMs: null,
      placementRetry: false,
      generationPerSecond: null,
      promptPerSecond: null,
    }
    store.recordSession({ ...base, key: 'a', engineVersion: 'b6000', driverVersion: '580', launchDigest: 'x', startedAt: 1 })
    store.recordSession({ ...base, key: 'b', engineVersion: 'b6100', driverVersion: '580', launchDigest: 'x', startedAt: 2 })
    store.recordSession({ ...base, key: 'c', engineVersion: 'b6100', driverVersion: '581', launchDigest: 'y', startedAt: 3 })
    const { changes } = await store.overview({})
    expect(changes).toEqual([
      { time: 2, profileId: 'qwen', what: 'engine', from: 'mainline b6000', to: 'mainline b6100' },
      { time: 3, profileId: 'qwen', what: 'driver', from: '580', to: '581' },
      { time: 3, profileId: 'qwen', what: 'profile', from: null, to: 'edited' },
    ])
  })

  it('sets a damaged file aside with a notice and starts a fresh one', async () => {
    await writeFile(join(home, 'history.sqlite'), 'SQLite format 3\0'.padEnd(4096, 'garbage'))
    const notices: string[] = []
    const store = open({ notice: (m) => notices.push(m) })
    store.recordRequest(historyRequest())
    expect(await store.listRequests({ sinceMs: null, profileId: null })).toHaveLength(1)
    expect(notices).toEqual(['The usage history file was damaged: it was set aside and a new one started.'])
    expect((await readdir(home)).filter((f) => f.startsWith('history.sqlite.damaged-'))).toHaveLength(1)
  })

  it('takes over the lock folder a killed process left inside a transaction', async () => {
    const store = open()
    store.recordRequest(historyRequest())
    await store.flush()
    await writeFile(join(home, 'x'), '')
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(home, 'history.sqlite.lock')) // what node-sqlite3-wasm leaves when killed holding a lock
    store.recordRequest(historyRequest())
    expect(await store.listRequests({ sinceMs: null, profileId: null })).toHaveLength(2)
  })

  it('stamps the schema version', async () => {
    const store = open()
    store.recordRequest(historyRequest())
    await store.flush()
    const db = new HistoryDb(join(home, 'history.sqlite'))
    expect(await db.use((d) => d.get('PRAGMA user_version'))).toEqual({ user_version: HISTORY_SCHEMA_VERSION })
    db.close()
  })
})
