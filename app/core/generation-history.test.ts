import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../lib/command-line'
import { ROLLING_FILE } from '../metrics/rolling-file'
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

describe('generation history across restarts of the app', () => {
  it('keeps a profile’s finished requests when the core is disposed, and the next core starts from them', async () => {
    const first = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { healthIntervalMs: 20 } })
    const imported = await first.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1']),
      'tiny',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    try {
      expect((await first.handlers['server:start'](imported.value.id)).ok).toBe(true)
      const port = runningProcess(first.server.getStatus()).port
      const timings = await complete(port)
      await waitUntil(() => first.snapshot().generation?.rolling?.requests === 1, 10_000, 'the request to be recorded')
      // Written a few seconds after a burst of requests, or at quit: checked after dispose.
      await first.handlers['server:stop']()
      await first.dispose()
      const file = JSON.parse(readFileSync(join(home, ROLLING_FILE), 'utf8')) as {
        profiles: { profileId: string; requests: { predictedTokensPerSecond: number }[] }[]
      }
      expect(file.profiles).toHaveLength(1)
      expect(file.profiles[0]?.profileId).toBe(imported.value.id)
      expect(file.profiles[0]?.requests[0]?.predictedTokensPerSecond).toBeCloseTo(timings.predicted_per_second, 2)
    } finally {
      await first.dispose()
    }
    const second = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { healthIntervalMs: 20 } })
    try {
      expect((await second.handlers['server:start'](imported.value.id)).ok).toBe(true)
      // Before any request of this run, the profile's figures are the ones from the last run.
      await waitUntil(() => second.snapshot().generation?.rolling != null, 10_000, 'the tracker to start')
      expect(second.snapshot().generation?.rolling).toMatchObject({ profileId: imported.value.id, requests: 1 })
    } finally {
      await second.dispose()
    }
  }, 120_000)
})
