import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HistoryStore } from '../history/history-store'
import { historyRequest } from '../../test/support/history/rows'
import { rollingFromHistory, timingsOfHistoryRequest } from './rolling-from-history'

const homes: string[] = []
afterEach(async () => {
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})
async function home(): Promise<string> {
  const h = await mkdtemp(join(tmpdir(), 'llama-tray-rolling-'))
  homes.push(h)
  return h
}

describe('the rolling figures from the usage history', () => {
  it('survive a restart: a new store on the same home gives each profile the median of its newest requests', async () => {
    const h = await home()
    const first = HistoryStore.at(h)
    const t0 = Date.now() - 3_600_000
    for (let i = 0; i < 60; i++)
      first.recordRequest(historyRequest({ time: t0 + i, profileId: 'qwen', generationPerSecond: i < 10 ? 5 : 40 }))
    first.recordRequest(historyRequest({ time: t0 + 100, profileId: 'gemma', generationPerSecond: 12 }))
    first.recordRequest(historyRequest({ time: t0 + 101, profileId: 'gemma', status: 500, error: 'boom', generationPerSecond: null }))
    await first.close()

    const second = HistoryStore.at(h)
    try {
      const rolling = await rollingFromHistory(second)
      // The window is the newest 50: the ten slow old ones are out of it.
      expect(rolling.figures('qwen')).toMatchObject({ requests: 50, medianTokensPerSecond: 40 })
      // A failed request generated nothing: it is no sample of speed.
      expect(rolling.figures('gemma')).toMatchObject({ requests: 1, medianTokensPerSecond: 12 })
    } finally {
      await second.close()
    }
  })

  it('reads a stored request as the server timed it: the prompt without its cached tokens, speeds and draft acceptance kept', () => {
    const t = timingsOfHistoryRequest(
      historyRequest({
        promptTokens: 300,
        cachedTokens: 44,
        promptPerSecond: 512,
        generatedTokens: 50,
        generationPerSecond: 25,
        draftTokens: 20,
        draftAccepted: 15,
      }),
    )
    expect(t).toMatchObject({
      promptTokens: 256,
      promptTokensPerSecond: 512,
      promptMs: 500,
      predictedTokens: 50,
      predictedMs: 2000,
      draftAcceptance: 0.75,
    })
  })

  it('is empty without a history', async () => {
    expect((await rollingFromHistory(null)).figures('qwen')).toBeNull()
  })
})
