import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestTimings } from '../contract/generation'
import { loadRollingStore, ROLLING_FILE, rollingHistoryStore, RollingSaver } from './rolling-file'

const homes: string[] = []
afterEach(async () => {
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})
async function home(): Promise<string> {
  const h = await mkdtemp(join(tmpdir(), 'llama-tray-rolling-'))
  homes.push(h)
  return h
}
const req = (tps: number, time: number): RequestTimings => ({
  time,
  slotId: 0,
  taskId: time,
  promptTokens: 20,
  promptMs: 10,
  promptTokensPerSecond: 2000,
  predictedTokens: 100,
  predictedMs: 100_000 / tps,
  predictedTokensPerSecond: tps,
  draftTokens: 50,
  draftAccepted: 40,
  draftAcceptance: 0.8,
})

describe('rolling figures across restarts', () => {
  it('saves a burst of requests once, after the delay, and a new store from the same home has the same figures', async () => {
    const h = await home()
    const store = await loadRollingStore(h)
    const saver = new RollingSaver(h, store, 50)
    for (const [i, tps] of [38, 41, 39, 7, 40].entries()) store.add('seed-000', req(tps, i))
    store.add('other', req(12, 9))
    await expect(readFile(join(h, ROLLING_FILE), 'utf8')).rejects.toThrow() // not yet: one write per burst
    await new Promise((r) => setTimeout(r, 120))
    await saver.flush()
    const reloaded = await loadRollingStore(h)
    expect(reloaded.figures('seed-000')).toEqual(store.figures('seed-000'))
    expect(reloaded.figures('seed-000')).toMatchObject({ requests: 5, medianTokensPerSecond: 39, draftAcceptance: 0.8 })
    expect(reloaded.entries().map((e) => e.profileId)).toEqual(['seed-000', 'other'])
  })

  it('flush writes what is pending at once (quit), and nothing when nothing changed', async () => {
    const h = await home()
    const store = await loadRollingStore(h)
    const saver = new RollingSaver(h, store, 60_000)
    await saver.flush()
    await expect(readFile(join(h, ROLLING_FILE), 'utf8')).rejects.toThrow()
    store.add('p', req(50, 1))
    await saver.flush()
    expect((await loadRollingStore(h)).figures('p')?.requests).toBe(1)
  })

  it('reads a file written by earlier versions (compact, one line)', async () => {
    const h = await home()
    await writeFile(
      join(h, ROLLING_FILE),
      `${JSON.stringify({ version: 1, profiles: [{ profileId: 'p', requests: [req(30, 1), req(32, 2)] }] })}\n`,
    )
    expect((await loadRollingStore(h)).figures('p')?.requests).toBe(2)
    expect(rollingHistoryStore(h).notices).toEqual([])
  })

  it('starts empty from a corrupt or foreign file, set aside with a notice (it is only a cache of measurements)', async () => {
    const h = await home()
    const foreign = '{"version":1,"profiles":[{"profileId":"p","requests":[{"time":"x"}]}]}'
    await writeFile(join(h, ROLLING_FILE), foreign)
    expect((await loadRollingStore(h)).entries()).toEqual([])
    expect(rollingHistoryStore(h).notices).toEqual([
      expect.stringMatching(/^The generation history .+ could not be read \(.+\); it was moved to .+\.$/),
    ])
    const aside = (await readdir(h)).filter((f) => f.startsWith(`${ROLLING_FILE}.corrupt-`))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(h, aside[0]!), 'utf8')).toBe(foreign)
    const other = await home()
    await writeFile(join(other, ROLLING_FILE), 'not json')
    expect((await loadRollingStore(other)).entries()).toEqual([])
  })
})
