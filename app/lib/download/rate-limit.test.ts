import { describe, expect, it } from 'vitest'
import { isRateLimited, rateLimitResetAt } from './rate-limit'

const now = new Date('2026-12-01T00:00:00Z')

describe('rateLimitResetAt', () => {
  it('reads retry-after as seconds or a date, and x-ratelimit-reset as epoch seconds or a delay', () => {
    expect(rateLimitResetAt({ 'retry-after': '60' }, now)?.toISOString()).toBe('2026-12-01T00:01:00.000Z')
    expect(rateLimitResetAt({ 'retry-after': 'Tue, 01 Dec 2026 00:05:00 GMT' }, now)?.toISOString()).toBe('2026-12-01T00:05:00.000Z')
    expect(rateLimitResetAt({ 'x-ratelimit-reset': '1796083200' }, now)?.toISOString()).toBe('2026-12-01T00:00:00.000Z')
    expect(rateLimitResetAt({ 'x-ratelimit-reset': '90' }, now)?.toISOString()).toBe('2026-12-01T00:01:30.000Z')
    expect(rateLimitResetAt({}, now)).toBeNull()
  })
  it('counts 429 and a 403 with no quota left as rate limits, not a plain 403', () => {
    expect(isRateLimited(429, {})).toBe(true)
    expect(isRateLimited(403, { 'x-ratelimit-remaining': '0' })).toBe(true)
    expect(isRateLimited(403, {})).toBe(false)
  })
})
