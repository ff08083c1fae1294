import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerStateKind } from '../contract/server-state'
import type { Snapshot } from '../contract/snapshot'
import { formatCommandLine } from '../lib/command-line'
import type { GpuProcessSource, GpuProcessUse } from '../platform/gpu-processes'
import { GpuProcessReader } from '../telemetry/gpu/gpu-process-reader'
import { call } from '../../test/support/endpoint/client'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning, waitUntil } from '../../test/helpers/processes'
import { createStandardCore } from './create-core'
import type { LlamaTrayCore } from './llama-tray-core'

// Issue #37: a game that takes the GPU while the model holds most of it sends both into the driver's fallback. Here a
// real llama-server runs under the core as the app runs it, and a fake source of the GPU's processes (the interface
// PDH and NVML sit behind) starts a game beside it: with onGame stop, the server is stopped through the core's parking
// (the scheduler's drain), the endpoint refuses requests naming the game, the snapshot says which game holds the GPU,
// and the profile is back once the game has been gone for gameBackAfterS.

const GAME: GpuProcessUse = { pid: 15320, name: 'Cyberpunk2077.exe', dedicatedMiB: 5120, engine3dPct: 93 }

describe('a game takes the GPU from a running profile (onGame stop)', () => {
  let core: LlamaTrayCore
  let home: string
  let endpointPort: number
  let listed: GpuProcessUse[] = []
  const snapshots: Snapshot[] = []
  const pids = new Set<number>()
  const source: GpuProcessSource = { problem: null, read: async () => listed, close: async () => {} }
  const state = (): ServerStateKind => core.server.getStatus().state

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-game-'))
    const gpuProcesses = new GpuProcessReader({ source, power: null, names: null, minIntervalMs: 0 })
    core = await createStandardCore({
      home,
      cadenceMs: 250,
      gpuProcesses,
      gameWatch: true,
      gameWatchIntervalMs: 200,
      supervisor: { readyTimeoutMs: 60_000 },
    })
    core.on('snapshot', (s) => snapshots.push(s))
    core.on('server:state-changed', (s) => void (s.pid && pids.add(s.pid)))
    const cmd = formatCommandLine([llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '512', '-np', '1', '-t', '1'])
    const imported = await core.handlers['profiles:import'](cmd, 'big')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const set = await core.handlers['settings:set']({ onGame: 'stop', gameHoldS: 1, gameBackAfterS: 1 })
    if (!set.ok) throw new Error(set.error.sentence)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    endpointPort = listened.status.port
    const started = await core.handlers['server:start']('big')
    if (!started.ok) throw new Error(started.error.sentence)
  }, 300_000)

  afterAll(async () => {
    await core?.dispose()
    for (const pid of pids) expect(isRunning(pid), `llama-server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  it('stops the server for the game, says so once naming it, refuses requests, and brings the profile back after it', async () => {
    await waitUntil(() => state() === 'ready', 120_000, 'the profile ready')
    const serverPid = core.server.getStatus().pid
    // Our own server on the GPU is never a game, however busy.
    listed = [{ pid: serverPid as number, name: 'llama-server', dedicatedMiB: 6000, engine3dPct: 100 }]
    await new Promise((r) => setTimeout(r, 1500))
    expect(state()).toBe('ready')

    listed = [...listed, GAME]
    await waitUntil(() => state() === 'stopped', 60_000, 'the server stopped for the game')
    await waitUntil(() => snapshots.at(-1)?.game?.action === 'stopped', 10_000, 'a snapshot naming the game')
    expect(snapshots.at(-1)?.game).toMatchObject({ name: 'Cyberpunk2077.exe', pid: 15320, dedicatedMiB: 5120 })
    await waitUntil(() => snapshots.at(-1)?.powerNotice != null, 10_000, 'the notice')
    expect(snapshots.at(-1)?.powerNotice?.sentence).toBe(
      'Cyberpunk2077.exe holds the GPU (5,120 MiB): stopped big to free its VRAM; it returns 1 s after the game.',
    )
    expect(snapshots.at(-1)?.powerNotice?.kind).toBe('game') // the app titles it as a game's, not "Power and sleep"
    const refused = await call(endpointPort, 'POST', '/v1/chat/completions', {
      model: 'big',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 2,
    })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.body).toContain('Cyberpunk2077.exe holds the GPU')
    expect(state()).toBe('stopped')

    listed = [] // the game ends
    await waitUntil(() => state() === 'ready' && core.server.getStatus().profileId === 'big', 120_000, 'the profile back')
    await waitUntil(() => snapshots.at(-1)?.game === null, 10_000, 'the game gone from the snapshot')
    await waitUntil(() => snapshots.at(-1)?.powerNotice?.sentence.includes('is back') === true, 10_000, 'the notice of the return')
    const notices = new Set(snapshots.map((s) => s.powerNotice?.sentence).filter(Boolean))
    expect([...notices]).toEqual([
      'Cyberpunk2077.exe holds the GPU (5,120 MiB): stopped big to free its VRAM; it returns 1 s after the game.',
      'Cyberpunk2077.exe no longer holds the GPU: big is back.',
    ])
    const answered = await call(endpointPort, 'POST', '/v1/chat/completions', {
      model: 'big',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 2,
    })
    expect(answered.status, answered.body).toBe(200)
  }, 300_000)

  it('"Keep running during games" (onGame set to keep) brings the profile back at once while the game still runs', async () => {
    await waitUntil(() => state() === 'ready', 120_000, 'the profile ready')
    listed = [GAME]
    await waitUntil(() => state() === 'stopped', 60_000, 'the server stopped for the game again')
    await waitUntil(() => snapshots.at(-1)?.game?.action === 'stopped', 10_000, 'a snapshot naming the game')
    const set = await core.handlers['settings:set']({ onGame: 'keep' })
    expect(set.ok).toBe(true)
    await waitUntil(() => state() === 'ready' && core.server.getStatus().profileId === 'big', 120_000, 'the profile back beside the game')
    await waitUntil(() => snapshots.at(-1)?.game === null, 10_000, 'the game line gone')
    expect(snapshots.at(-1)?.powerNotice).toMatchObject({
      sentence: 'Cyberpunk2077.exe still holds the GPU, but onGame is keep now: big is back.',
      kind: 'game',
    })
    expect(listed).toEqual([GAME]) // the game never ended
  }, 300_000)
})
