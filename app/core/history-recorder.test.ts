import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EndpointRequestFigures } from '../contract/endpoint'
import { HistoryStore } from '../history/history-store'
import { serverStatus } from '../../test/helpers/server-status'
import { HistoryRecorder, modelOfArgs } from './history-recorder'

let home: string
let store: HistoryStore
let clock = 1_000
let recorder: HistoryRecorder

const figures = (over: Partial<EndpointRequestFigures> = {}): EndpointRequestFigures => ({
  time: Date.now(), // within the retention (older requests are rolled into their day)
  profileId: 'default',
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  stream: false,
  timeToFirstByteMs: 120,
  timeToFirstTokenMs: null,
  durationMs: 900,
  heldMs: 0,
  promptTokens: 12,
  predictedTokens: 8,
  predictedTokensPerSecond: 30,
  cachedTokens: 4,
  promptTokensPerSecond: 300,
  draftTokens: null,
  draftAccepted: null,
  error: null,
  energyJ: null,
  ...over,
})

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-recorder-'))
  store = HistoryStore.at(home)
  clock = 1_000
  recorder = new HistoryRecorder(store, {
    launch: () => ({ profileId: 'default', exe: '/opt/llama/llama-server', args: ['-m', '/models/qwen.gguf', '-c', '4096'] }),
    facts: async () => ({ profileName: 'Default', engine: 'llama.cpp cuda', engineVersion: 'b6100', driverVersion: null }),
    placementRetry: () => false,
    now: () => clock,
  })
})
afterEach(async () => {
  await recorder.dispose()
  await rm(home, { recursive: true, force: true })
})

describe('HistoryRecorder', () => {
  it('writes a session from spawn to a clean stop, with its load time', async () => {
    recorder.onState(serverStatus('starting'))
    await new Promise((r) => setImmediate(r)) // the profile's name and engine are looked up (a resolved port here)
    clock = 4_000
    recorder.onState(serverStatus('loading'))
    recorder.onState(serverStatus('ready'))
    clock = 9_000
    recorder.onState(serverStatus('stopping'))
    recorder.onState(serverStatus('stopped'))
    const sessions = await store.listSessions({ sinceMs: null, profileId: null })
    expect(sessions).toMatchObject([
      { kind: 'server', profileId: 'default', profileName: 'Default', model: 'qwen.gguf', engineVersion: 'b6100', startedAt: 1_000 },
    ])
    expect(sessions[0]).toMatchObject({ readyAt: 4_000, loadMs: 3_000, stoppedAt: 9_000, ended: 'stopped' })
  })

  it('tells a crash after ready from a start that failed, and a restart is a new session', async () => {
    recorder.onState(serverStatus('starting'))
    recorder.onState(serverStatus('ready'))
    recorder.onState(serverStatus('backoff'))
    recorder.onState(serverStatus('starting', { pid: 5000 }))
    recorder.onState(serverStatus('errored'))
    const sessions = await store.listSessions({ sinceMs: null, profileId: null })
    expect(sessions.map((s) => s.ended)).toEqual(['crashed', 'failed'])
  })

  it("writes a request with the usage counts (the prompt with its cached tokens) and the endpoint's GPU energy", async () => {
    recorder.onState(serverStatus('starting'))
    recorder.onState(serverStatus('ready'))
    await new Promise((r) => setImmediate(r)) // the session's facts, looked up once it starts, name its requests
    recorder.onRequest(figures({ energyJ: 12.5 }))
    recorder.onRequest(figures({ status: 500, error: 'boom', promptTokens: null, cachedTokens: null, predictedTokens: null }))
    const [ok, failed] = await store.listRequests({ sinceMs: null, profileId: null })
    expect(ok).toMatchObject({
      promptTokens: 16,
      cachedTokens: 4,
      generatedTokens: 8,
      promptPerSecond: 300,
      ttftMs: 120,
      model: 'qwen.gguf',
      energyJ: 12.5,
    })
    expect(ok).toMatchObject({ profileName: 'Default', engineVersion: 'b6100' })
    expect(failed).toMatchObject({ status: 500, error: 'boom', promptTokens: null, energyJ: null })
  })

  it('writes a bench run as a bench session with its median speeds', async () => {
    const result = {
      profileId: 'default',
      profileName: 'Default',
      label: 'Default',
      exe: '/opt/llama/llama-server',
      args: ['-m', '/m/q.gguf'],
      fork: 'mainline',
    }
    const report = {
      createdAt: new Date(2_000).toISOString(),
      results: [{ ...result, loadMs: 900, median: { tokensPerSecond: 31.5, promptTokensPerSecond: 410, draftAcceptance: null } }],
    }
    recorder.onBench(report as unknown as Parameters<HistoryRecorder['onBench']>[0])
    const [bench] = await store.listSessions({ sinceMs: null, profileId: null, kind: 'bench' })
    expect(bench).toMatchObject({
      kind: 'bench',
      profileId: 'default',
      model: 'q.gguf',
      startedAt: 2_000,
      generationPerSecond: 31.5,
      promptPerSecond: 410,
      loadMs: 900,
    })
  })

  it('finds the model a launch names', () => {
    expect(modelOfArgs(['-m', 'C:\\models\\a.gguf'.replace(/\\/g, '/')])).toBe('a.gguf')
    expect(modelOfArgs(['--model=/m/b.gguf'])).toBe('b.gguf')
    expect(modelOfArgs(['-hf', 'org/repo'])).toBeNull()
  })
})
