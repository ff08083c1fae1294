import { describe, expect, it } from 'vitest'
import type { ProcessGpuUse } from '../platform/win32/pdh-gpu-use'
import { GameWatch, gameSentence } from './game-watch'

const names = new Map([
  [100, 'Cyberpunk2077'],
  [42, 'llama-server'],
  [7, 'msedge'],
])
const nameOf = (pid: number): string | null => names.get(pid) ?? null
const ours = new Set([42])
const use = (entries: [number, number, number][]): Map<number, ProcessGpuUse> =>
  new Map(entries.map(([pid, threeDPct, dedicatedMiB]) => [pid, { threeDPct, dedicatedMiB }]))

describe('a game taking the GPU', () => {
  const options = { minDedicatedMiB: 1024, minThreeDPct: 30, holdMs: 10_000 }

  it('starts once another process keeps 3D busy with enough VRAM for the set time, and ends as long after it stops', () => {
    const watch = new GameWatch(options)
    const playing = use([
      [100, 90, 5200],
      [42, 95, 6000],
    ])
    expect(watch.feed(0, playing, ours, nameOf)).toBeNull()
    expect(watch.feed(5000, playing, ours, nameOf)).toBeNull()
    expect(watch.feed(10_000, playing, ours, nameOf)).toEqual({ kind: 'started', pid: 100, name: 'Cyberpunk2077' })
    expect(watch.feed(11_000, playing, ours, nameOf)).toBeNull()
    expect(watch.feed(12_000, use([]), ours, nameOf)).toBeNull()
    expect(watch.feed(21_000, use([]), ours, nameOf)).toBeNull()
    expect(watch.feed(22_000, use([]), ours, nameOf)).toEqual({ kind: 'ended', name: 'Cyberpunk2077' })
    expect(watch.current).toBeNull()
  })

  it('never counts our own server, a brief burst, or a browser with little VRAM', () => {
    const watch = new GameWatch(options)
    expect(watch.feed(0, use([[42, 99, 7000]]), ours, nameOf)).toBeNull()
    expect(watch.feed(20_000, use([[42, 99, 7000]]), ours, nameOf)).toBeNull()
    expect(watch.feed(0, use([[7, 80, 400]]), ours, nameOf)).toBeNull()
    expect(watch.feed(20_000, use([[7, 80, 400]]), ours, nameOf)).toBeNull()
    expect(watch.feed(21_000, use([[100, 90, 5000]]), ours, nameOf)).toBeNull()
    expect(watch.feed(25_000, use([]), ours, nameOf)).toBeNull()
    expect(watch.feed(40_000, use([[100, 90, 5000]]), ours, nameOf)).toBeNull() // the clock starts again
  })

  it('takes Game Mode on as a game at once, and names it in the sentence', () => {
    const watch = new GameWatch(options)
    const started = watch.feed(0, use([[100, 40, 2000]]), ours, nameOf, true)
    expect(started).toEqual({ kind: 'started', pid: 100, name: 'Cyberpunk2077' })
    expect(gameSentence(started!, 'stop', 'Qwen3 30B')).toBe(
      'Cyberpunk2077 is using the GPU: stopped Qwen3 30B to free its VRAM; it returns after the game.',
    )
    expect(gameSentence({ kind: 'ended', name: 'Cyberpunk2077' }, 'sleep', 'Qwen3 30B')).toBe('Cyberpunk2077 has ended: Qwen3 30B is back.')
  })
})
