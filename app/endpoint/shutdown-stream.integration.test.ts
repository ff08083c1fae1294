import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlamaTrayCore } from '../core/llama-tray-core'
import { formatCommandLine } from '../lib/command-line'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning } from '../../test/helpers/processes'
import { call } from '../../test/support/endpoint/client'
import { switchAtOnce } from '../../test/support/core/switch-at-once'

// Issue #42 (Low): a shutdown cut a stream without an error event or [DONE]: the client could not tell a stop from a
// finished answer. Now a stream in flight ends with an SSE error event naming the shutdown (the real llama-server).
describe('a shutdown ends the streams in flight with an error event', () => {
  let core: LlamaTrayCore
  let home: string
  const pids = new Set<number>()

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-shutdown-stream-'))
    core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 60_000 } })
    await switchAtOnce(core)
    core.on('server:state-changed', (s) => s.pid && pids.add(s.pid))
    const argv = [llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1', '-t', '1']
    const imported = await core.handlers['profiles:import'](formatCommandLine(argv), 'alpha')
    if (!imported.ok) throw new Error(imported.error.sentence)
  }, 900_000)

  afterAll(async () => {
    await core.dispose()
    for (const pid of pids) expect(isRunning(pid), `llama-server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  it('the stream gets a shutting_down error event as its last, and the stop completes', async () => {
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    const body = { model: 'alpha', messages: [{ role: 'user', content: 'Say hi' }], max_tokens: 1500, ignore_eos: true, stream: true }
    let stopped: Promise<void> | null = null
    const answer = await call(listened.status.port, 'POST', '/v1/chat/completions', body, false, () => {
      stopped = core.stopEndpoint()
    })
    expect(answer.status).toBe(200)
    expect(answer.events.length).toBeGreaterThan(1)
    expect(answer.events.at(-1)).toMatchObject({ error: { code: 'shutting_down', type: 'unavailable_error' } })
    expect(answer.body).not.toContain('[DONE]')
    await stopped
  }, 120_000)
})
