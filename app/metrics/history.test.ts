import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { RequestTimings } from '../contract/generation'
import { resolveApiKey } from './api-key'
import { GenerationTracker } from './generation-tracker'
import { median } from './median'
import { PerSecondHistory } from './per-second-history'
import { ProfileRollingStore } from './rolling-figures'
import { fixtureText, linesOf } from '../../test/support/metrics/fixtures'

function req(tps: number, draft: [number, number] | null = null): RequestTimings {
  return {
    time: 0,
    slotId: 0,
    taskId: 1,
    promptTokens: 10,
    promptMs: 10,
    promptTokensPerSecond: 1000,
    predictedTokens: 100,
    predictedMs: 1000,
    predictedTokensPerSecond: tps,
    draftTokens: draft?.[0] ?? null,
    draftAccepted: draft?.[1] ?? null,
    draftAcceptance: draft ? draft[1] / draft[0] : null,
  }
}

describe('rolling figures and histories', () => {
  it('gives the median generation rate and pooled acceptance per profile, over a bounded window', () => {
    const store = new ProfileRollingStore(3, 2)
    for (const t of [10, 20, 30, 40]) store.add('a', req(t, [10, 5]))
    store.add('b', req(99))
    expect(store.figures('a')).toEqual({
      profileId: 'a',
      requests: 3,
      medianTokensPerSecond: 30,
      medianPromptTokensPerSecond: 1000,
      medianLongPromptTokensPerSecond: null,
      longPrompts: 0,
      draftAcceptance: 0.5,
      joulesPer1000Tokens: null, // no request here measured its energy
    })
    expect(store.figures('b')).toMatchObject({ requests: 1, draftAcceptance: null })
    store.add('c', req(1)) // evicts the least recently used profile
    expect(store.figures('a')).toBeNull()
    expect(store.figures('b')).not.toBeNull()
  })

  it('median matches a sort-based definition (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 50 }),
        (xs) => {
          const s = [...xs].sort((a, b) => a - b)
          const n = s.length
          const want = n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2
          expect(median(xs)).toBeCloseTo(want, 9)
        },
      ),
    )
    expect(median([])).toBeNull()
  })

  it('folds samples into one point per second and stays bounded', () => {
    const h = new PerSecondHistory(3)
    h.add(1000, 10, 1)
    h.add(1500, 20, 1)
    h.add(2100, 30, 2)
    expect(h.points()).toEqual([
      { time: 1000, tokensPerSecond: 15, activeSlots: 1 },
      { time: 2000, tokensPerSecond: 30, activeSlots: 2 },
    ])
    for (let t = 3000; t < 10_000; t += 1000) h.add(t, t, 1)
    expect(h.points().map((p) => p.time)).toEqual([7000, 8000, 9000])
  })
})

describe('GenerationTracker fed with a real log', () => {
  it('turns the log into the last request, the request history and the rolling figures', async () => {
    const tracker = new GenerationTracker({ baseUrl: 'http://127.0.0.1:9', profileId: 'spec' })
    for (const line of linesOf(fixtureText('llama-server', 'logs', 'spec_draft_simple.log'))) tracker.feedLogLine(line)
    await tracker.stop()
    const snap = tracker.snapshot()
    expect(tracker.history().requests).toHaveLength(2)
    expect(snap.last).toMatchObject({
      taskId: 94,
      predictedTokensPerSecond: 189.16,
      draftTokens: 168,
      draftAccepted: 119,
      draftAcceptance: 0.70833,
    })
    expect(snap.rolling).toMatchObject({
      profileId: 'spec',
      requests: 2,
      medianTokensPerSecond: (196.63 + 189.16) / 2,
      draftAcceptance: (163 + 119) / (213 + 168),
    })
    expect(snap.active).toBe(false)
    expect(snap.tokensPerSecond).toBeNull()
  })
})

describe('resolveApiKey', () => {
  it('reads --api-key (first of a list), --api-key-file and LLAMA_API_KEY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metrics-key-'))
    try {
      const file = join(dir, 'key.txt')
      writeFileSync(file, '\n  from-file \nsecond\n')
      expect(await resolveApiKey(['-m', 'x', '--api-key', 'k1,k2'])).toBe('k1')
      expect(await resolveApiKey(['--api-key=k3'])).toBe('k3')
      expect(await resolveApiKey(['--api-key-file', file])).toBe('from-file')
      expect(await resolveApiKey([], { LLAMA_API_KEY: 'env-key' })).toBe('env-key')
      expect(await resolveApiKey(['-m', 'x'])).toBeNull()
      await expect(resolveApiKey(['--api-key-file', join(dir, 'missing')])).rejects.toThrow(/cannot read --api-key-file .*missing: ENOENT/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
