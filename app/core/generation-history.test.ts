import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../lib/command-line'
import { HistoryStore } from '../history/history-store'
import { historyRequest } from '../../test/support/history/rows'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { waitUntil } from '../../test/helpers/processes'
import { LlamaTrayCore } from './llama-tray-core'
import { runningProcess } from '../../test/helpers/server-status'

let bin: string
let home: string
beforeAll(() => {
  bin = llamaServerBin()
  home = mkdtempSync(join(tmpdir(), 'llama-tray-history-'))
}, 900_000)
afterAll(() => rmSync(home, { recursive: true, force: true }))

function complete(port: number): Promise<{ predicted_per_second: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/completion', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (c: string) => (text += c))
        res.on('end', () => resolve((JSON.parse(text) as { timings: { predicted_per_second: number } }).timings))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ prompt: 'Hello', n_predict: 48, ignore_eos: true }))
  })
}

describe('the speed-drop baseline across restarts of the app', () => {
  it('starts a profile’s rolling figures from its requests in the usage history, kept by the last run', async () => {
    const first = await LlamaTrayCore.create({
      home,
      telemetry: null,
      history: HistoryStore.at(home),
      supervisor: { healthIntervalMs: 20 },
    })
    const imported = await first.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1']),
      'tiny',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    await first.dispose()
    // What the endpoint of the last run wrote: three requests of this profile, the last one the slowest.
    const past = HistoryStore.at(home)
    for (const [i, speed] of [30, 32, 20].entries())
      past.recordRequest(historyRequest({ time: Date.now() - 60_000 + i, profileId: imported.value.id, generationPerSecond: speed }))
    await past.close()

    const second = await LlamaTrayCore.create({
      home,
      telemetry: null,
      history: HistoryStore.at(home),
      supervisor: { healthIntervalMs: 20 },
    })
    try {
      expect((await second.handlers['server:start'](imported.value.id)).ok).toBe(true)
      // Before any request of this run, the profile's figures (the baseline) are the ones from the history.
      await waitUntil(() => second.snapshot().generation?.rolling != null, 10_000, 'the tracker to start')
      expect(second.snapshot().generation?.rolling).toMatchObject({ profileId: imported.value.id, requests: 3, medianTokensPerSecond: 30 })
      const port = runningProcess(second.server.getStatus()).port
      const timings = await complete(port)
      // A request of this run joins the figures (the server's own timings, not the history's).
      await waitUntil(() => second.snapshot().generation?.rolling?.requests === 4, 10_000, 'the request to be counted')
      expect(second.snapshot().generation?.last?.predictedTokensPerSecond).toBeCloseTo(timings.predicted_per_second, 2)
    } finally {
      await second.dispose()
    }
  }, 120_000)
})
