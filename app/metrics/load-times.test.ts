import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LOAD_TIMES_FILE, LoadTimes } from './load-times'

const homes: string[] = []
const home = (): string => {
  const h = mkdtempSync(join(tmpdir(), 'llama-tray-load-times-'))
  homes.push(h)
  return h
}
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

describe('LoadTimes', () => {
  it('has no estimate before the first load, then the median of the last five', async () => {
    const times = await LoadTimes.open(home())
    expect(times.expectedMs('qwen')).toBeNull()
    for (const ms of [90_000, 40_000, 42_000, 41_000, 43_000, 44_000]) await times.record('qwen', ms)
    expect(times.loads('qwen')).toBe(5) // the 90 s cold load fell out
    expect(times.expectedMs('qwen')).toBe(42_000)
    expect(times.expectedMs('other')).toBeNull()
  })

  it('survives a restart of the app through <home>/load-times.json', async () => {
    const h = home()
    const first = await LoadTimes.open(h)
    await first.record('qwen', 12_345.6)
    await first.record('draft', 20_000)
    expect(JSON.parse(readFileSync(join(h, LOAD_TIMES_FILE), 'utf8'))).toEqual({
      version: 1,
      profiles: { qwen: [12_346], draft: [20_000] },
    })
    const again = await LoadTimes.open(h)
    expect(again.expectedMs('qwen')).toBe(12_346)
    expect(again.loads('draft')).toBe(1)
  })

  it('reads a file written by earlier versions (compact, one line)', async () => {
    const h = home()
    writeFileSync(join(h, LOAD_TIMES_FILE), '{"version":1,"profiles":{"qwen":[40000,42000,41000],"draft":[9000]}}\n')
    const times = await LoadTimes.open(h)
    expect(times.expectedMs('qwen')).toBe(41_000)
    expect(times.loads('draft')).toBe(1)
    expect(times.messages).toEqual([])
  })

  it('sets a damaged file aside with a notice, starts empty, and a nonsense time is not recorded', async () => {
    const h = home()
    writeFileSync(join(h, LOAD_TIMES_FILE), '{"version":1,"profiles":{"qwen":["soon"]}}')
    const times = await LoadTimes.open(h)
    expect(times.expectedMs('qwen')).toBeNull()
    const aside = readdirSync(h).filter((f) => f.startsWith(`${LOAD_TIMES_FILE}.corrupt-`))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(h, aside[0]!), 'utf8')).toBe('{"version":1,"profiles":{"qwen":["soon"]}}')
    expect(times.messages).toEqual([
      expect.stringMatching(/^The load times file .+ could not be read \(.+\); it was moved to .+\.corrupt-.+\.$/),
    ])
    await times.record('qwen', Number.NaN)
    await times.record('qwen', -5)
    expect(times.loads('qwen')).toBe(0)
  })
})
