import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Result } from '../contract/commands'
import type { OnGameSetting } from '../contract/game'
import type { ServerStatus } from '../contract/server-state'
import type { GpuProcessUse } from '../platform/gpu-processes'
import { GPU_ASLEEP } from '../telemetry/gpu/gpu-process-reader'
import { serverStatus as statusOf } from '../../test/helpers/server-status'
import { GAME_WATCH_INTERVAL_MS, GamePolicy } from './game-policy'

const GAME: GpuProcessUse = { pid: 15320, name: 'Cyberpunk2077.exe', dedicatedMiB: 5120, engine3dPct: 90 }

function harness(setting: OnGameSetting) {
  let running: string | null = 'big'
  let onGame = setting
  let listed: readonly GpuProcessUse[] | 'asleep' = []
  const said: string[] = []
  const calls: string[] = []
  const reads: number[][] = []
  const listeners = new Set<() => void>()
  const reader = {
    problem: null as string | null,
    read: async (exclude: readonly number[]) => {
      reads.push([...exclude])
      if (listed === 'asleep') {
        reader.problem = GPU_ASLEEP
        return null
      }
      reader.problem = null
      return { at: Date.now(), processes: listed.filter((p) => !exclude.includes(p.pid)) }
    },
  }
  const policy = new GamePolicy({
    reader,
    onGame: () => onGame,
    thresholds: () => ({ busyPct: 50, vramMiB: 1024, holdS: 10, backAfterS: 30 }),
    onSettingsChange: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    ownPids: () => (running ? [4242] : []),
    status: (): ServerStatus => (running ? statusOf('ready', { profileId: running }) : statusOf('stopped')),
    isProfile: async (id) => ['big', 'small'].includes(id),
    request: async (id): Promise<Result<ServerStatus>> => {
      calls.push(`request ${id}`)
      running = id
      return { ok: true, value: statusOf('ready', { profileId: id }) }
    },
    stopWhenIdle: async () => {
      calls.push('stop')
      running = null
    },
    nameOf: async (id) => id.toUpperCase(),
    say: (s) => said.push(s),
    changed: () => {},
  })
  return {
    policy,
    said,
    calls,
    reads,
    list: (l: readonly GpuProcessUse[] | 'asleep') => (listed = l),
    choose: (id: string | null) => (running = id),
    setOnGame: (s: OnGameSetting) => {
      onGame = s
      for (const l of listeners) l()
    },
  }
}

/** `seconds` of the watch's cadence pass, each look done. */
async function pass(h: ReturnType<typeof harness>, seconds: number): Promise<void> {
  for (let t = 0; t < seconds * 1000; t += GAME_WATCH_INTERVAL_MS) {
    await vi.advanceTimersByTimeAsync(GAME_WATCH_INTERVAL_MS)
    await h.policy.settled()
  }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('the onGame setting', () => {
  it('stops the server once a game has held the GPU for the hold time, says so once, and brings it back after the game', async () => {
    const h = harness('stop')
    await pass(h, 10)
    expect(h.calls).toEqual([]) // no game yet
    h.list([GAME])
    await pass(h, 5)
    expect(h.calls).toEqual([])
    await pass(h, 10)
    expect(h.calls).toEqual(['stop'])
    expect(h.said).toEqual(['Cyberpunk2077.exe holds the GPU (5,120 MiB): stopped BIG to free its VRAM; it returns 30 s after the game.'])
    expect(h.policy.game).toMatchObject({ name: 'Cyberpunk2077.exe', pid: 15320, action: 'stopped' })
    expect(h.policy.refusal()).toBe('Cyberpunk2077.exe holds the GPU, so the server is stopped until it ends (the onGame setting is stop).')
    await pass(h, 60) // still playing
    expect(h.calls).toEqual(['stop'])
    h.list([])
    await pass(h, 25)
    expect(h.calls).toEqual(['stop'])
    await pass(h, 10)
    expect(h.calls).toEqual(['stop', 'request big'])
    expect(h.said.at(-1)).toBe('Cyberpunk2077.exe no longer holds the GPU: BIG is back.')
    expect(h.policy.game).toBeNull()
    expect(h.policy.refusal()).toBeNull()
    h.policy.dispose()
  })

  it('sleep stops it too but lets requests wake it; the user choosing another profile meanwhile stands', async () => {
    const h = harness('sleep')
    h.list([GAME])
    await pass(h, 15)
    expect(h.calls).toEqual(['stop'])
    expect(h.said[0]).toMatch(/BIG sleeps to free its VRAM/)
    expect(h.policy.refusal()).toBeNull()
    h.choose('small') // the user starts another profile while the game runs
    h.list([])
    await pass(h, 40)
    expect(h.calls).toEqual(['stop'])
    expect(h.said).toHaveLength(1)
    h.policy.dispose()
  })

  it('the user starting a profile during the game stands: the game shows as kept and nothing is refused', async () => {
    const h = harness('stop')
    h.list([GAME])
    await pass(h, 15)
    expect(h.policy.game).toMatchObject({ action: 'stopped' })
    h.choose('small') // "Start" in the popover while the game runs
    expect(h.policy.game).toMatchObject({ name: 'Cyberpunk2077.exe', action: 'kept' })
    expect(h.policy.refusal()).toBeNull()
    h.list([])
    await pass(h, 40)
    expect(h.calls).toEqual(['stop']) // the game over: the user's choice stands, nothing restarted
    expect(h.policy.game).toBeNull()
    h.policy.dispose()
  })

  it('set to keep while the game runs ("Keep running during games"): the profile is back at once, beside the game', async () => {
    const h = harness('stop')
    h.list([GAME])
    await pass(h, 15)
    expect(h.calls).toEqual(['stop'])
    h.setOnGame('keep')
    await h.policy.settled()
    expect(h.calls).toEqual(['stop', 'request big'])
    expect(h.said.at(-1)).toBe('Cyberpunk2077.exe still holds the GPU, but onGame is keep now: BIG is back.')
    expect(h.policy.game).toBeNull()
    expect(h.policy.refusal()).toBeNull()
    const reads = h.reads.length
    await pass(h, 60)
    expect(h.reads.length).toBe(reads) // keep: the GPU's processes are no longer read
    h.setOnGame('stop') // watched again: the game is seen afresh and held for the hold time
    await pass(h, 15)
    expect(h.calls).toEqual(['stop', 'request big', 'stop'])
    h.policy.dispose()
  })

  it('keep reads nothing; with no server of ours nothing is read either; a sleeping GPU ends the game', async () => {
    const keep = harness('keep')
    keep.list([GAME])
    await pass(keep, 60)
    expect(keep.reads).toEqual([])
    keep.setOnGame('stop')
    keep.choose(null)
    await pass(keep, 60)
    expect(keep.reads).toEqual([]) // nothing of ours runs: the GPU is left alone
    keep.policy.dispose()

    const h = harness('stop')
    h.list([GAME])
    await pass(h, 15)
    expect(h.reads[0]).toEqual([4242]) // our own server is never the game
    h.list('asleep') // the game ended and the GPU powered down
    await pass(h, 35)
    expect(h.calls).toEqual(['stop', 'request big'])
    h.policy.dispose()
  })
})
