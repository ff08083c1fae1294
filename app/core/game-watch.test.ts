import { describe, expect, it } from 'vitest'
import type { GpuProcessUse } from '../platform/gpu-processes'
import { GAME_MODE_NAME, GameWatch, type GameThresholds } from './game-watch'

const T: GameThresholds = { busyPct: 50, vramMiB: 1024, holdS: 10, backAfterS: 30 }
const game = (over: Partial<GpuProcessUse> = {}): GpuProcessUse => ({
  pid: 15320,
  name: 'Cyberpunk2077.exe',
  dedicatedMiB: 5120,
  engine3dPct: 90,
  ...over,
})
const browser: GpuProcessUse = { pid: 77, name: 'msedge.exe', dedicatedMiB: 400, engine3dPct: 80 }
const s = (n: number): number => n * 1000

describe('GameWatch: when a game holds the GPU', () => {
  it('starts after the hold time of every look over both thresholds, not before', () => {
    const w = new GameWatch(() => T)
    expect(w.look(s(0), { processes: [game(), browser], gameMode: null })).toBeNull()
    expect(w.look(s(5), { processes: [game()], gameMode: null })).toBeNull()
    expect(w.look(s(10), { processes: [game()], gameMode: null })).toEqual({
      kind: 'started',
      game: { pid: 15320, name: 'Cyberpunk2077.exe', dedicatedMiB: 5120 },
    })
    expect(w.game?.name).toBe('Cyberpunk2077.exe')
  })

  it('does not count a busy process with little memory, a big idle one, or one that dips below in between', () => {
    const w = new GameWatch(() => T)
    for (let t = 0; t <= 60; t += 5) expect(w.look(s(t), { processes: [browser, game({ engine3dPct: 10 })], gameMode: null })).toBeNull()
    const dip = new GameWatch(() => T)
    dip.look(s(0), { processes: [game()], gameMode: null })
    dip.look(s(5), { processes: [game({ engine3dPct: 20 })], gameMode: null })
    expect(dip.look(s(10), { processes: [game()], gameMode: null })).toBeNull() // counts from 10 s again
    expect(dip.look(s(20), { processes: [game()], gameMode: null })?.kind).toBe('started')
  })

  it('holds through a paused game, ends backAfterS after its memory is gone, and a sleeping GPU counts as no game', () => {
    const w = new GameWatch(() => T)
    w.look(s(0), { processes: [game()], gameMode: null })
    w.look(s(10), { processes: [game()], gameMode: null })
    expect(w.look(s(60), { processes: [game({ engine3dPct: 0 })], gameMode: null })).toBeNull() // paused: still holds 5 GB
    expect(w.look(s(65), { processes: [], gameMode: null })).toBeNull() // exited: quiet from 65 s
    expect(w.look(s(80), { processes: 'unknown', gameMode: null })).toBeNull() // the platform refused: no change
    expect(w.look(s(90), { processes: 'asleep', gameMode: null })).toBeNull()
    expect(w.look(s(95), { processes: 'asleep', gameMode: null })).toEqual({
      kind: 'ended',
      game: { pid: 15320, name: 'Cyberpunk2077.exe', dedicatedMiB: 5120 },
    })
    expect(w.game).toBeNull()
  })

  it('a game coming back before backAfterS keeps it going', () => {
    const w = new GameWatch(() => T)
    w.look(s(0), { processes: [game()], gameMode: null })
    w.look(s(10), { processes: [game()], gameMode: null })
    expect(w.look(s(15), { processes: [], gameMode: null })).toBeNull()
    expect(w.look(s(30), { processes: [game()], gameMode: null })).toBeNull()
    expect(w.look(s(50), { processes: [], gameMode: null })).toBeNull() // quiet again from 50 s, not 15 s
    expect(w.look(s(79), { processes: [], gameMode: null })).toBeNull()
    expect(w.look(s(80), { processes: [], gameMode: null })?.kind).toBe('ended')
  })

  it('Game Mode starts it at once (naming the busiest process if any) and holds it while on', () => {
    const w = new GameWatch(() => T)
    expect(w.look(s(0), { processes: [], gameMode: true })).toEqual({
      kind: 'started',
      game: { pid: null, name: GAME_MODE_NAME, dedicatedMiB: null },
    })
    expect(w.look(s(100), { processes: [], gameMode: true })).toBeNull()
    expect(w.look(s(105), { processes: [], gameMode: false })).toBeNull()
    expect(w.look(s(135), { processes: [], gameMode: false })?.kind).toBe('ended')
    const named = new GameWatch(() => T)
    expect(named.look(s(0), { processes: [game()], gameMode: true })?.game).toMatchObject({ name: 'Cyberpunk2077.exe' })
  })

  it("the shell's full-screen Direct3D hint skips the hold time for a busy process, and alone decides nothing", () => {
    const w = new GameWatch(() => T)
    expect(w.look(s(0), { processes: [browser], gameMode: null, fullScreen: true })).toBeNull()
    expect(w.look(s(5), { processes: [game()], gameMode: null, fullScreen: true })?.kind).toBe('started')
  })

  it('follows the thresholds as the settings change them', () => {
    let t = T
    const w = new GameWatch(() => t)
    w.look(s(0), { processes: [browser], gameMode: null })
    t = { ...T, vramMiB: 256 }
    expect(w.look(s(5), { processes: [browser], gameMode: null })).toBeNull()
    expect(w.look(s(15), { processes: [browser], gameMode: null })?.game.name).toBe('msedge.exe')
  })
})
