import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EndpointRequestFigures } from '../contract/endpoint'
import { LlamaTrayCore } from '../core/llama-tray-core'
import { formatCommandLine } from '../lib/command-line'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning, waitUntil } from '../../test/helpers/processes'
import { call, leaveStreamAfter } from '../../test/support/endpoint/client'
import { runningProcess } from '../../test/helpers/server-status'
import { switchAtOnce } from '../../test/support/core/switch-at-once'

// Two fixture profiles on the real llama-server, one thread, short contexts, few tokens.
const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'Say hi' }],
  max_tokens: 4,
  ...extra,
})

describe('the endpoint in front of the real llama-server', () => {
  let core: LlamaTrayCore
  let home: string
  let port: number
  const figures: EndpointRequestFigures[] = []
  const pids = new Set<number>()

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-endpoint-'))
    core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 60_000 } })
    await switchAtOnce(core)
    core.on('server:state-changed', (s) => s.pid && pids.add(s.pid))
    const common = ['-c', '2048', '-np', '1', '-t', '1', '--seed', '1']
    for (const [name, file] of [
      ['alpha', 'tiny-target.gguf'],
      ['beta', 'tiny-draft.gguf'],
    ] as const) {
      const imported = await core.handlers['profiles:import'](formatCommandLine([bin, '-m', model(file), ...common]), name)
      if (!imported.ok) throw new Error(imported.error.sentence)
    }
    const broken = await core.handlers['profiles:import'](formatCommandLine([bin, '-m', join(home, 'missing.gguf'), ...common]), 'broken', {
      force: true,
    })
    if (!broken.ok) throw new Error(broken.error.sentence)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
    core.onEndpointRequest((f) => figures.push(f))
  }, 900_000)

  afterAll(async () => {
    await core.dispose()
    for (const pid of pids) expect(isRunning(pid), `llama-server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  it('lists the stored profiles, the active one marked once it runs', async () => {
    const before = JSON.parse((await call(port, 'GET', '/v1/models')).body) as { data: { id: string; active: boolean }[] }
    expect(before.data.map((m) => [m.id, m.active])).toEqual([
      ['alpha', false],
      ['beta', false],
      ['broken', false],
    ])
  })

  it('request A, then three concurrent requests for B during the switch (all answered), then a streamed request for A', async () => {
    const a = await call(port, 'POST', '/v1/chat/completions', chat('alpha'))
    expect(a.status, a.body).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', host: '127.0.0.1' })
    expect(core.server.getStatus().port).not.toBe(port) // the server sits on a private port behind the endpoint
    const listed = JSON.parse((await call(port, 'GET', '/v1/models')).body) as { data: { id: string; active: boolean }[] }
    expect(listed.data.find((m) => m.active)?.id).toBe('alpha')

    const forB = await Promise.all([0, 1, 2].map(() => call(port, 'POST', '/v1/chat/completions', chat('beta'))))
    expect(forB.map((r) => r.status)).toEqual([200, 200, 200])
    for (const r of forB) expect((JSON.parse(r.body) as { choices: unknown[] }).choices).toHaveLength(1)
    expect(core.server.getStatus().profileId).toBe('beta')
    expect(figures.slice(-3).some((f) => f.heldMs > 0)).toBe(true)

    const streamed = await call(port, 'POST', '/v1/chat/completions', chat('alpha', { stream: true, max_tokens: 8 }))
    expect(streamed.status).toBe(200)
    expect(streamed.events.at(-1)).toBe('[DONE]')
    expect(core.server.getStatus().profileId).toBe('alpha')
    const last = figures.at(-1) as EndpointRequestFigures
    expect(last).toMatchObject({ profileId: 'alpha', stream: true, status: 200 })
    expect(last.timeToFirstTokenMs).toBeGreaterThan(0)
    // The figures from what passed through agree with what the server logged for the request (the /slots + log tracker).
    await waitUntil(
      () => core.snapshot().generation?.last?.predictedTokens === last.predictedTokens,
      10_000,
      'the tracker to record the request',
    )
    expect(core.snapshot().generation?.last?.predictedTokensPerSecond).toBeCloseTo(last.predictedTokensPerSecond as number, 0)
  }, 180_000)

  it('a client that leaves mid-stream frees the slot (visible in /slots through the endpoint)', async () => {
    const slots = async (): Promise<boolean[]> => {
      const list = JSON.parse((await call(port, 'GET', '/slots')).body) as { is_processing: unknown }[]
      expect(list.length).toBeGreaterThan(0)
      return list.map((s) => {
        expect(typeof s.is_processing).toBe('boolean')
        return s.is_processing === true
      })
    }
    // Busy while the client reads (1,500 tokens take far longer than this test waits), idle soon after it leaves.
    await leaveStreamAfter(port, chat('alpha', { stream: true, max_tokens: 1500, ignore_eos: true }), 3, async () =>
      expect(await slots()).toContain(true),
    )
    const deadline = Date.now() + 20_000
    while ((await slots()).includes(true)) {
      if (Date.now() > deadline) throw new Error('the slot stayed busy after the client left')
      await new Promise((r) => setTimeout(r, 50))
    }
    // The server says why it went idle: our aborted request cancelled its task (far short of 1,500 tokens).
    const release = core.server.getLogs(20).find((l) => /release: .* n_tokens = \d+/.test(l))
    expect(core.server.getLogs(20).some((l) => /cancel task/.test(l))).toBe(true)
    expect(Number(/n_tokens = (\d+)/.exec(release ?? '')?.[1])).toBeLessThan(1500)
  }, 60_000)

  it('a crash mid-stream ends the stream with an error event, and the next request waits for the restart', async () => {
    const pid = runningProcess(core.server.getStatus()).pid
    // Killed once the first tokens have passed through.
    const streaming = call(
      port,
      'POST',
      '/v1/chat/completions',
      chat('alpha', { stream: true, max_tokens: 1500, ignore_eos: true }),
      false,
      () => process.kill(pid, 'SIGKILL'),
    )
    const broken = await streaming
    expect(broken.status).toBe(200)
    expect(broken.events.at(-1)).toMatchObject({ error: { code: 'upstream_broken' } })
    const next = await call(port, 'POST', '/v1/chat/completions', chat('alpha'))
    expect(next.status, next.body).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha' })
    expect(core.server.getStatus().pid).not.toBe(pid)
    expect(figures.at(-1)?.heldMs).toBeGreaterThan(0)
  }, 120_000)

  it('a profile that cannot start is refused before the running one stops, and the endpoint serves the others after', async () => {
    const pid = core.server.getStatus().pid
    const held = await Promise.all([0, 1].map(() => call(port, 'POST', '/v1/chat/completions', chat('broken'))))
    for (const r of held) {
      expect(r.status).toBe(409)
      expect((JSON.parse(r.body) as { error: { message: string } }).error.message).toMatch(
        /^Profile "broken" cannot start, so "alpha" keeps running: .*model/i,
      )
    }
    expect(core.server.getStatus().pid).toBe(pid)
    const back = await call(port, 'POST', '/v1/chat/completions', chat('alpha'))
    expect(back.status, back.body).toBe(200)
  }, 120_000)
})
