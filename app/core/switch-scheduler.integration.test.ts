import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EndpointRequestFigures } from '../contract/endpoint'
import type { AppSettings } from '../contract/settings'
import { formatCommandLine } from '../lib/command-line'
import { call, type ClientAnswer } from '../../test/support/endpoint/client'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning, waitUntil } from '../../test/helpers/processes'
import { LlamaTrayCore } from './llama-tray-core'

const chat = (profile: string, extra: Record<string, unknown> = {}) => ({
  model: profile,
  messages: [{ role: 'user', content: 'Say hi' }],
  max_tokens: 4,
  ...extra,
})
const longStream = (profile: string, tokens: number) => chat(profile, { stream: true, max_tokens: tokens, ignore_eos: true })
/** The tokens the server says it generated for a stream (its last chunk's timings). */
const predicted = (a: ClientAnswer): number | undefined =>
  (a.events.find((e) => typeof e === 'object' && e !== null && 'timings' in e) as { timings?: { predicted_n?: number } } | undefined)
    ?.timings?.predicted_n

describe('the switch scheduler in front of the real llama-server', () => {
  let core: LlamaTrayCore
  let home: string
  let port: number
  const figures: EndpointRequestFigures[] = []
  const starts: string[] = []
  const pids = new Set<number>()

  const settings = async (changes: Partial<AppSettings>): Promise<void> => {
    const set = await core.handlers['settings:set'](changes)
    if (!set.ok) throw new Error(set.error.sentence)
  }

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-switch-'))
    core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 60_000 } })
    core.on('server:state-changed', (s) => {
      if (s.pid) pids.add(s.pid)
      if (s.state === 'starting' && s.profileId && starts.at(-1) !== s.profileId) starts.push(s.profileId)
    })
    const common = ['-c', '2048', '-np', '4', '-t', '1', '--seed', '1']
    const files = [
      ['alpha', model('tiny-target.gguf')],
      ['beta', model('tiny-draft.gguf')],
      ['gamma', model('tiny-target-iq.gguf')],
      ['broken', join(home, 'missing.gguf')],
    ]
    for (const [name, file] of files) {
      const imported = await core.handlers['profiles:import'](formatCommandLine([bin, '-m', file as string, ...common]), name as string, {
        force: true, // broken's model is missing on purpose
      })
      if (!imported.ok) throw new Error(imported.error.sentence)
    }
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

  it('a long stream for A finishes whole before a request for B switches the server', async () => {
    await settings({ switchMinResidencyS: 0, switchDrainS: 600 })
    expect((await call(port, 'POST', '/v1/chat/completions', chat('alpha'))).status).toBe(200)
    const order: string[] = []
    let forB: Promise<ClientAnswer> | null = null
    const forA = call(port, 'POST', '/v1/chat/completions', longStream('alpha', 300), false, () => {
      forB ??= call(port, 'POST', '/v1/chat/completions', chat('beta')).then((b) => (order.push('beta'), b))
    }).then((a) => (order.push('alpha'), a))
    const a = await forA
    const b = await (forB as unknown as Promise<ClientAnswer>)
    expect(a.events.at(-1)).toBe('[DONE]')
    expect(predicted(a)).toBe(300)
    expect(b.status, b.body).toBe(200)
    expect(order).toEqual(['alpha', 'beta'])
    expect(core.server.getStatus().profileId).toBe('beta')
  }, 300_000)

  it('a switch to a profile with a missing model while A streams: A unharmed, a one-sentence reason, same pid', async () => {
    expect((await call(port, 'POST', '/v1/chat/completions', chat('alpha'))).status).toBe(200)
    const pid = core.server.getStatus().pid
    let refused: Promise<ClientAnswer> | null = null
    const a = await call(port, 'POST', '/v1/chat/completions', longStream('alpha', 200), false, () => {
      refused ??= call(port, 'POST', '/v1/chat/completions', chat('broken'))
    })
    const r = await (refused as unknown as Promise<ClientAnswer>)
    expect(r.status).toBe(409)
    const error = (JSON.parse(r.body) as { error: { message: string; code: string } }).error
    expect(error.code).toBe('profile_refused')
    expect(error.message).toMatch(/^Profile "broken" cannot start, so "alpha" keeps running: .*model.*\.$/)
    expect(a.events.at(-1)).toBe('[DONE]')
    expect(predicted(a)).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid })
  }, 300_000)

  it('past the drain limit a running stream ends with an error event naming the switch', async () => {
    await settings({ switchMinResidencyS: 0, switchDrainS: 0 })
    expect(core.server.getStatus().profileId).toBe('alpha')
    let forB: Promise<ClientAnswer> | null = null
    const a = await call(port, 'POST', '/v1/chat/completions', longStream('alpha', 1500), false, () => {
      forB ??= call(port, 'POST', '/v1/chat/completions', chat('beta'))
    })
    const last = a.events.at(-1) as { error?: { code: string; message: string } }
    expect(last.error?.code).toBe('switch_cut')
    expect(last.error?.message).toMatch(
      /^The server switched from profile "alpha" to "beta" after this answer ran past the switch drain limit of 0 s;/,
    )
    expect((await (forB as unknown as Promise<ClientAnswer>)).status).toBe(200)
    expect(core.server.getStatus().profileId).toBe('beta')
  }, 300_000)

  it('once a switch is decided, a new request for the old profile waits in its group; a steady stream does not starve another', async () => {
    await settings({ switchMinResidencyS: 0, switchDrainS: 600 })
    expect((await call(port, 'POST', '/v1/chat/completions', chat('alpha'))).status).toBe(200)
    starts.length = 0
    const done: string[] = []
    const answered = (name: string) => (a: ClientAnswer) => (done.push(name), a)
    let forB: Promise<ClientAnswer> | null = null
    const stream = call(port, 'POST', '/v1/chat/completions', longStream('alpha', 300), false, () => {
      forB ??= call(port, 'POST', '/v1/chat/completions', chat('beta')).then(answered('beta'))
    }).then(answered('alpha stream'))
    // The switch to beta is decided (it waits for the stream): a new request for alpha now waits with alpha's group.
    await waitUntil(() => core.snapshot().pendingSwitch?.profileId === 'beta', 120_000, 'the switch to beta to be decided')
    const laterA = call(port, 'POST', '/v1/chat/completions', chat('alpha')).then(answered('later alpha'))
    const [a, , later] = await Promise.all([stream, forB as unknown as Promise<ClientAnswer>, laterA])
    expect(predicted(a)).toBe(300)
    expect(later.status).toBe(200)
    expect(done).toEqual(['alpha stream', 'beta', 'later alpha'])
    expect(starts).toEqual(['beta', 'alpha'])

    // Fairness: alpha runs with a 3 s residency and its clients never stop asking; beta's request still gets its turn.
    await settings({ switchMinResidencyS: 3, switchDrainS: 600 })
    starts.length = 0
    figures.length = 0
    let betaDone = false
    const forBeta = call(port, 'POST', '/v1/chat/completions', chat('beta')).then((b) => ((betaDone = true), b))
    let servedA = 0
    while (!betaDone) {
      expect((await call(port, 'POST', '/v1/chat/completions', chat('alpha'))).status).toBe(200)
      servedA++
    }
    expect((await forBeta).status).toBe(200)
    expect(starts[0]).toBe('beta')
    const betaWait = figures.find((f) => f.profileId === 'beta')?.heldMs ?? Number.NaN
    console.log(`beta waited ${Math.round(betaWait)} ms while alpha's clients sent ${servedA} requests (residency 3 s)`)
  }, 300_000)

  it('A B A A C from five clients loads each profile once; each request waits its group', async () => {
    // Alpha loads at once; its residency, set after, keeps it loaded while the trace arrives (within about 0.5 s of the
    // load, a tenth of the residency), so B waits for it and the later A's are served on the way.
    await settings({ switchMinResidencyS: 0, switchDrainS: 60 })
    expect((await call(port, 'POST', '/v1/chat/completions', chat('alpha'))).status).toBe(200)
    await settings({ switchMinResidencyS: 5, switchDrainS: 60 })
    starts.length = 0
    figures.length = 0
    const trace = ['alpha', 'beta', 'alpha', 'alpha', 'gamma']
    const answers: Promise<ClientAnswer>[] = []
    for (const profile of trace) {
      answers.push(call(port, 'POST', '/v1/chat/completions', chat(profile)))
      await new Promise((r) => setTimeout(r, 50)) // arrival order only; nothing is timed
    }
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect(starts).toEqual(['beta', 'gamma'])
    const waits = figures.map((f) => `${f.profileId} ${Math.round(f.heldMs)} ms`)
    console.log(`A B A A C waits (arrival order may differ from completion order): ${waits.join(', ')}`)
    expect(figures).toHaveLength(5)
  }, 300_000)
})
