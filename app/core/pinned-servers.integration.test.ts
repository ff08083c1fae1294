import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerStatus } from '../contract/server-state'
import type { PinnedServerView, Snapshot } from '../contract/snapshot'
import { formatCommandLine } from '../lib/command-line'
import { call, type ClientAnswer } from '../../test/support/endpoint/client'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning, waitUntil } from '../../test/helpers/processes'
import { LlamaTrayCore } from './llama-tray-core'
import { runningProcess } from '../../test/helpers/server-status'
import { switchAtOnce } from '../../test/support/core/switch-at-once'

/** A sanity bound only (about ten times a load on a busy machine): every wait ends on an event. */
const SANITY_MS = 240_000

const chat = (profile: string, extra: Record<string, unknown> = {}) => ({
  model: profile,
  messages: [{ role: 'user', content: 'Say hi' }],
  max_tokens: 4,
  ...extra,
})
const embed = { model: 'embed', input: 'a small model beside the big one' }
const predicted = (a: ClientAnswer): number | undefined =>
  (a.events.find((e) => typeof e === 'object' && e !== null && 'timings' in e) as { timings?: { predicted_n?: number } } | undefined)
    ?.timings?.predicted_n

describe('a pinned profile beside the active one, real llama-servers', () => {
  let core: LlamaTrayCore
  let home: string
  let port: number
  const pids = new Set<number>()

  /** Resolves with the first snapshot (the latest one, or one pushed later) for which `pick` finds something. */
  function snapshotWhere<T>(pick: (s: Snapshot) => T | null | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const found = pick(core.snapshot())
      if (found != null) return resolve(found)
      const timer = setTimeout(() => (off(), reject(new Error(`no snapshot with ${what}`))), SANITY_MS)
      const off = core.on('snapshot', (s) => {
        const value = pick(s)
        if (value == null) return
        clearTimeout(timer)
        off()
        resolve(value)
      })
    })
  }
  const pinnedWhere = (pred: (p: PinnedServerView) => boolean, what: string): Promise<PinnedServerView> =>
    snapshotWhere((s) => s.pinned?.find((p) => p.profileId === 'embed' && pred(p)), `the pinned server ${what}`)

  /** The main server's next state for which `pred` holds (its current one counts). */
  function serverWhere(pred: (s: ServerStatus) => boolean, what: string): Promise<ServerStatus> {
    return new Promise((resolve, reject) => {
      if (pred(core.server.getStatus())) return resolve(core.server.getStatus())
      const timer = setTimeout(() => (off(), reject(new Error(`the active server never was ${what}`))), SANITY_MS)
      const off = core.on('server:state-changed', (s) => {
        if (!pred(s)) return
        clearTimeout(timer)
        off()
        resolve(s)
      })
    })
  }

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-pinned-'))
    core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 120_000 } })
    await switchAtOnce(core)
    core.on('server:state-changed', (s) => {
      if (s.pid) pids.add(s.pid)
    })
    core.on('snapshot', (s) => {
      for (const p of s.pinned ?? []) if (p.pid) pids.add(p.pid)
    })
    const common = ['-c', '2048', '-np', '2', '-t', '1', '--seed', '1']
    const profiles: [string, string[]][] = [
      ['alpha', [bin, '-m', model('tiny-target.gguf'), ...common]],
      ['beta', [bin, '-m', model('tiny-target-iq.gguf'), ...common]],
      ['draft', [bin, '-m', model('tiny-draft.gguf'), ...common]],
      ['embed', [bin, '-m', model('tiny-draft.gguf'), '--embeddings', '--pooling', 'mean', ...common]],
    ]
    for (const [name, argv] of profiles) {
      const imported = await core.handlers['profiles:import'](formatCommandLine(argv), name)
      if (!imported.ok) throw new Error(imported.error.sentence)
    }
    // No GPU reading (telemetry null): the fit has nothing to refuse against.
    const pinned = await core.handlers['profiles:pin']('embed')
    if (!pinned.ok) throw new Error(pinned.error.sentence)
    expect(pinned.value.pinned).toBe(true)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
    const started = await core.handlers['server:start']('alpha')
    if (!started.ok) throw new Error(started.error.sentence)
    await pinnedWhere((p) => p.state === 'ready', 'ready')
  }, 600_000)

  afterAll(async () => {
    await core.dispose()
    for (const pid of pids) expect(isRunning(pid), `llama-server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  it('answers /v1/embeddings on its own port while the active profile runs; neither pid changes; /v1/models marks it', async () => {
    const alpha = core.server.getStatus()
    const pinned = await pinnedWhere((p) => p.state === 'ready', 'ready')
    expect(pinned.port).not.toBe(alpha.port)
    expect(pinned.pid).not.toBe(alpha.pid)
    // Its own log file: written at the log's first flush, which a fast load can beat to ready on a loaded machine.
    await waitUntil(() => existsSync(join(home, 'logs', 'llama-server-embed.log')), 30_000, "the pinned server's log file")

    const e = await call(port, 'POST', '/v1/embeddings', embed)
    expect(e.status, e.body).toBe(200)
    expect((JSON.parse(e.body) as { data: { embedding: number[] }[] }).data[0]?.embedding.length).toBeGreaterThan(0)
    const c = await call(port, 'POST', '/v1/chat/completions', chat('alpha'))
    expect(c.status, c.body).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alpha.pid })
    expect(core.snapshot().pinned).toEqual([expect.objectContaining({ profileId: 'embed', state: 'ready', pid: pinned.pid })])

    const models = JSON.parse((await call(port, 'GET', '/v1/models')).body) as { data: { id: string; pinned: boolean; owned_by: string }[] }
    expect(models.data.map((m) => [m.id, m.pinned, m.owned_by])).toEqual([
      ['alpha', false, 'llama-tray'],
      ['beta', false, 'llama-tray'],
      ['draft', false, 'llama-tray'],
      ['embed', true, 'llama-tray'],
    ])
    // The tray's or the dashboard's switch to the pinned profile routes to it: the active server stays.
    expect((await core.handlers['server:start']('embed')).ok).toBe(true)
    expect(core.server.getStatus()).toMatchObject({ profileId: 'alpha', pid: alpha.pid })
  }, 300_000)

  it('a request for the pinned model during an active stream does not interrupt the stream', async () => {
    const alphaPid = core.server.getStatus().pid
    let forEmbed: Promise<ClientAnswer> | null = null
    const stream = await call(
      port,
      'POST',
      '/v1/chat/completions',
      chat('alpha', { stream: true, max_tokens: 200, ignore_eos: true }),
      false,
      () => {
        forEmbed ??= call(port, 'POST', '/v1/embeddings', embed)
      },
    )
    expect(stream.events.at(-1)).toBe('[DONE]')
    expect(predicted(stream)).toBe(200)
    expect((await (forEmbed as unknown as Promise<ClientAnswer>)).status).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ profileId: 'alpha', pid: alphaPid })
  }, 300_000)

  it('keeps its pid while the active profile switches and back', async () => {
    const pinnedPid = (await pinnedWhere((p) => p.state === 'ready', 'ready')).pid
    const alphaPid = core.server.getStatus().pid
    const toBeta = await core.handlers['server:start']('beta')
    if (!toBeta.ok) throw new Error(toBeta.error.sentence)
    const beta = await serverWhere((s) => s.state === 'ready' && s.profileId === 'beta', 'ready with beta')
    expect(beta.pid).not.toBe(alphaPid)
    expect(isRunning(alphaPid as number)).toBe(false)
    expect(core.snapshot().pinned).toEqual([expect.objectContaining({ profileId: 'embed', state: 'ready', pid: pinnedPid, restarts: 0 })])
    expect((await call(port, 'POST', '/v1/embeddings', embed)).status).toBe(200)
    // A request names the other profile: the endpoint switches back; the pinned server is untouched.
    expect((await call(port, 'POST', '/v1/chat/completions', chat('alpha'))).status).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha' })
    expect(core.snapshot().pinned?.[0]).toMatchObject({ state: 'ready', pid: pinnedPid })
  }, 300_000)

  it("a pinned chat profile's own figures (tokens/s, prompt speed) reach its snapshot entry, apart from the active one's", async () => {
    const pinned = await core.handlers['profiles:pin']('draft')
    if (!pinned.ok) throw new Error(pinned.error.sentence)
    const draftWhere = (pred: (p: PinnedServerView) => boolean, what: string) =>
      snapshotWhere((s) => s.pinned?.find((p) => p.profileId === 'draft' && pred(p)), `the pinned draft ${what}`)
    await draftWhere((p) => p.state === 'ready', 'ready')
    const activeLast = core.snapshot().generation?.last ?? null
    const answer = await call(port, 'POST', '/v1/chat/completions', chat('draft', { max_tokens: 16, ignore_eos: true }))
    expect(answer.status, answer.body).toBe(200)
    const seen = await draftWhere((p) => p.generation?.last?.predictedTokens === 16, 'with its request of 16 tokens')
    const last = seen.generation?.last
    expect(last?.predictedTokensPerSecond).toBeGreaterThan(0)
    expect(last?.promptTokens).toBeGreaterThan(0)
    expect(last?.promptTokensPerSecond).toBeGreaterThan(0)
    // The active server's figures are its own: the pinned request did not land there.
    expect(core.snapshot().generation?.last ?? null).toEqual(activeLast)
    const unpinned = await core.handlers['profiles:unpin']('draft')
    if (!unpinned.ok) throw new Error(unpinned.error.sentence)
    await snapshotWhere((s) => (s.pinned?.some((p) => p.profileId === 'draft') ? null : true), 'without draft')
  }, 300_000)

  it('kill -9 of either server: each is restarted by its own supervisor, the other keeps its pid', async () => {
    const alphaPid = runningProcess(core.server.getStatus()).pid
    const pinnedPid = (await pinnedWhere((p) => p.state === 'ready', 'ready')).pid as number

    const alphaRestarts = core.server.getStatus().restarts
    process.kill(pinnedPid, 'SIGKILL')
    const back = await pinnedWhere((p) => p.state === 'ready' && p.pid !== pinnedPid, 'ready again with a new pid')
    // Its own restart policy counted it and says why; the active server's count is unchanged.
    expect(back.restarts).toBe(1)
    expect(back.lastExit?.sentence).toMatch(/^[A-Z].*\.$/)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', pid: alphaPid, restarts: alphaRestarts })
    expect((await call(port, 'POST', '/v1/embeddings', embed)).status).toBe(200)

    process.kill(alphaPid, 'SIGKILL')
    const alphaBack = await serverWhere((s) => s.state === 'ready' && s.pid !== alphaPid, 'ready again with a new pid')
    expect(alphaBack.profileId).toBe('alpha')
    expect(alphaBack.restarts).toBe(alphaRestarts + 1)
    expect(core.snapshot().pinned).toEqual([expect.objectContaining({ state: 'ready', pid: back.pid, restarts: 1 })])
    expect((await call(port, 'POST', '/v1/chat/completions', chat('alpha'))).status).toBe(200)
  }, 600_000)

  it('unpinning stops its server; the active one runs on', async () => {
    const alphaPid = core.server.getStatus().pid
    const pinnedPid = (await pinnedWhere((p) => p.state === 'ready', 'ready')).pid as number
    const unpinned = await core.handlers['profiles:unpin']('embed')
    if (!unpinned.ok) throw new Error(unpinned.error.sentence)
    await snapshotWhere((s) => (s.pinned?.length === 0 ? true : null), 'no pinned server')
    expect(isRunning(pinnedPid)).toBe(false)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alphaPid })
    const again = await core.handlers['profiles:unpin']('embed')
    expect(again.ok).toBe(false)
  }, 300_000)

  it('a pinned profile that cannot start says why in the snapshot and to its requests; the active one runs on', async () => {
    const alphaPid = core.server.getStatus().pid
    const broken = [llamaServerBin(), '-m', join(home, 'missing.gguf'), '-t', '1']
    const imported = await core.handlers['profiles:import'](formatCommandLine(broken), 'broken', { force: true })
    if (!imported.ok) throw new Error(imported.error.sentence)
    expect((await core.handlers['profiles:pin']('broken')).ok).toBe(true)
    const failed = await snapshotWhere(
      (s) => s.pinned?.find((p) => p.profileId === 'broken' && p.state === 'errored'),
      'the broken pinned server failed',
    )
    expect(failed.lastExit?.sentence).toMatch(/^[A-Z].*missing\.gguf.*\.$/)
    const answer = await call(port, 'POST', '/v1/chat/completions', chat('broken'))
    expect(answer.status).toBe(503)
    const error = (JSON.parse(answer.body) as { error: { code: string; message: string } }).error
    expect(error.code).toBe('pinned_down')
    expect(error.message).toMatch(/^The server of pinned profile "broken" is not running \(.+\); see its log in Llama Tray, fix the /)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alphaPid })
  }, 300_000)
})
