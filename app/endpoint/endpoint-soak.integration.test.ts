import { mkdtempSync, rmSync } from 'node:fs'
import { Agent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlamaTrayCore } from '../core/llama-tray-core'
import { formatCommandLine } from '../lib/command-line'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { call } from '../../test/support/endpoint/client'
import { switchAtOnce } from '../../test/support/core/switch-at-once'

// The full size (1,000 requests across 20 switches, about 100 s on 2 busy cores) with LLAMA_TRAY_SOAK_FULL=1; 200 across 4 by default.
const FULL = process.env.LLAMA_TRAY_SOAK_FULL === '1'
const REQUESTS = FULL ? 1000 : 200
const SWITCHES = FULL ? 20 : 4
const CONCURRENCY = 8

type Kind = 'models' | 'health' | 'chat'

describe(`the endpoint under ${REQUESTS} requests across ${SWITCHES} switches (real llama-server)`, () => {
  let core: LlamaTrayCore
  let home: string
  let port: number

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-soak-'))
    core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 60_000 } })
    await switchAtOnce(core)
    for (const [name, file] of [
      ['alpha', 'tiny-target.gguf'],
      ['beta', 'tiny-draft.gguf'],
    ] as const) {
      const imported = await core.handlers['profiles:import'](
        formatCommandLine([bin, '-m', model(file), '-c', '512', '-np', '1', '-t', '1']),
        name,
      )
      if (!imported.ok) throw new Error(imported.error.sentence)
    }
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
  }, 900_000)

  afterAll(async () => {
    await core.dispose()
    rmSync(home, { recursive: true, force: true })
  })

  it('answers every request: 0 connection errors, 0 lost responses', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY }) // clients keep their connections across switches
    const rounds = SWITCHES + 1 // the first round starts alpha, each later one switches
    const perRound = Math.ceil(REQUESTS / rounds)
    const served: string[] = []
    core.on('server:state-changed', (s) => s.state === 'ready' && served.push(s.profileId as string))
    const counts = { sent: 0, connectionErrors: 0, answered: 0, byStatus: new Map<string, number>() }
    const wrong: string[] = []
    const started = performance.now()
    for (let round = 0; round < rounds && counts.sent < REQUESTS; round++) {
      const target = round % 2 === 0 ? 'alpha' : 'beta'
      // Mostly cheap requests, a completion (1 token) in every third one; the round's first request names the new profile.
      const kinds: Kind[] = Array.from({ length: Math.min(perRound, REQUESTS - counts.sent) }, (_, i) =>
        i % 3 === 0 ? 'chat' : i % 3 === 1 ? 'models' : 'health',
      )
      let next = 0
      const worker = async (): Promise<void> => {
        while (next < kinds.length) {
          const kind = kinds[next++] as Kind
          counts.sent++
          try {
            const answer =
              kind === 'chat'
                ? await call(
                    port,
                    'POST',
                    '/v1/chat/completions',
                    { model: target, max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] },
                    agent,
                  )
                : await call(port, 'GET', kind === 'models' ? '/v1/models' : '/health', undefined, agent)
            counts.answered++
            const key = `${kind} ${answer.status}`
            counts.byStatus.set(key, (counts.byStatus.get(key) ?? 0) + 1)
            const fine = kind === 'health' ? answer.status === 200 || answer.status === 503 : answer.status === 200
            if (!fine) wrong.push(`${key}: ${answer.body.slice(0, 200)}`)
          } catch (err) {
            counts.connectionErrors++
            wrong.push(`${kind}: ${(err as Error).message}`)
          }
        }
      }
      await Promise.all(Array.from({ length: CONCURRENCY }, worker))
      expect(core.server.getStatus().profileId).toBe(target)
    }
    const seconds = (performance.now() - started) / 1000
    agent.destroy()
    const switches = served.filter((p, i) => i > 0 && p !== served[i - 1]).length
    console.log(
      `soak: ${counts.sent} requests, ${switches} switches, ${seconds.toFixed(1)} s, ` +
        `${JSON.stringify(Object.fromEntries(counts.byStatus))}`,
    )
    expect(wrong).toEqual([])
    expect(counts.connectionErrors).toBe(0)
    expect(counts.answered).toBe(counts.sent)
    expect(counts.sent).toBe(REQUESTS)
    expect(switches).toBe(SWITCHES)
  }, 900_000)
})
