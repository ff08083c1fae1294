import type { ProcessGpuUse } from '../platform/win32/pdh-gpu-use'

export interface GameWatchOptions {
  /** A process counts as a game while it holds more dedicated GPU memory than this… */
  readonly minDedicatedMiB: number
  /** …and keeps the 3D engine at least this busy… */
  readonly minThreeDPct: number
  /** …for this long (and the game is over once none has for this long). */
  readonly holdMs: number
}

export type GameEvent =
  { readonly kind: 'started'; readonly pid: number; readonly name: string } | { readonly kind: 'ended'; readonly name: string }

/**
 * Tells when a game takes the GPU and when it is done, from per-process GPU use (PDH on Windows) fed at each sample:
 * another process (not one of ours) keeping the 3D engine busy with more than the set dedicated memory for `holdMs`,
 * or Game Mode on. SHQueryUserNotificationState is only a hint (unreliable on Optimus laptops) and is not used here.
 */
export class GameWatch {
  private candidate: { pid: number; since: number } | null = null
  private game: { pid: number; name: string } | null = null
  private clearSince: number | null = null

  constructor(private readonly options: GameWatchOptions) {}

  /** The game holding the GPU now, if any. */
  get current(): { readonly pid: number; readonly name: string } | null {
    return this.game
  }

  /**
   * One sample: `use` per pid on the NVIDIA adapter, `ours` the pids of our servers, `nameOf` a process's image
   * name, `gameMode` whether Windows' effective power mode is GameMode. Returns what changed, or null.
   */
  feed(
    now: number,
    use: ReadonlyMap<number, ProcessGpuUse>,
    ours: ReadonlySet<number>,
    nameOf: (pid: number) => string | null,
    gameMode = false,
  ): GameEvent | null {
    const busy = [...use]
      .filter(([pid, u]) => !ours.has(pid) && u.dedicatedMiB > this.options.minDedicatedMiB && u.threeDPct >= this.options.minThreeDPct)
      .sort((a, b) => b[1].dedicatedMiB - a[1].dedicatedMiB)
    const top = busy[0]?.[0] ?? null
    if (this.game) {
      const stillPlaying = gameMode || busy.some(([pid]) => pid === this.game?.pid)
      if (stillPlaying) {
        this.clearSince = null
        return null
      }
      this.clearSince ??= now
      if (now - this.clearSince < this.options.holdMs) return null
      const ended = this.game
      this.game = null
      this.clearSince = null
      this.candidate = null
      return { kind: 'ended', name: ended.name }
    }
    if (top === null) {
      this.candidate = null
      return null
    }
    if (this.candidate?.pid !== top) this.candidate = { pid: top, since: now }
    if (!gameMode && now - this.candidate.since < this.options.holdMs) return null
    this.game = { pid: top, name: nameOf(top) ?? `process ${top}` }
    return { kind: 'started', pid: top, name: this.game.name }
  }
}

/** What the onGame setting did, in one sentence naming the game. */
export function gameSentence(event: GameEvent, action: 'sleep' | 'stop', profileName: string): string {
  if (event.kind === 'ended') return `${event.name} has ended: ${profileName} is back.`
  return action === 'stop'
    ? `${event.name} is using the GPU: stopped ${profileName} to free its VRAM; it returns after the game.`
    : `${event.name} is using the GPU: ${profileName} sleeps to free its VRAM; it returns after the game.`
}
