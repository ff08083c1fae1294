import type { GpuProcessUse } from '../platform/gpu-processes'

/** The onGame thresholds (settings): what counts as a game holding the GPU, and how long before anything is done. */
export interface GameThresholds {
  /** Another process's 3D-engine use above this %… */
  readonly busyPct: number
  /** …with more than this much dedicated memory… */
  readonly vramMiB: number
  /** …for this long (seconds) is a game. */
  readonly holdS: number
  /** The game is over once no process has counted for this long (seconds): the profile comes back then. */
  readonly backAfterS: number
}

/** The game the watch saw: its process (null when only Game Mode said so) and its memory. */
export interface GameSeen {
  readonly pid: number | null
  readonly name: string
  readonly dedicatedMiB: number | null
}

/**
 * One look at the GPU: its other processes (ours left out), 'asleep' (nothing can hold a sleeping GPU), or 'unknown'
 * (the platform refused: nothing changes). `gameMode` is Windows' effective power mode GameMode, null where unknown.
 */
export type GameLook = {
  readonly processes: readonly GpuProcessUse[] | 'asleep' | 'unknown'
  readonly gameMode: boolean | null
  /** The shell says a full-screen Direct3D app runs (SHQueryUserNotificationState): a hint that skips the hold time, never alone. */
  readonly fullScreen?: boolean | null
}

export type GameChange = { readonly kind: 'started'; readonly game: GameSeen } | { readonly kind: 'ended'; readonly game: GameSeen }

/** The name shown when only Game Mode says a game runs. */
export const GAME_MODE_NAME = 'a game (Game Mode is on)'

/**
 * Decides, from looks at the GPU at the watch's cadence, when a game starts and when it is over: a process counts
 * while its 3D use and its memory are over the thresholds; it is a game once it has counted for `holdS` (every look
 * in between), or at once when Game Mode is on. The game is over once its process has let its memory go (or exited), Game
 * Mode is off and no other process counts, for `backAfterS`. Pure:
 * the caller passes the time.
 */
export class GameWatch {
  /** Since when each counting pid has counted (a look where it does not count drops it). */
  private readonly counting = new Map<number, number>()
  private current: GameSeen | null = null
  private quietSince: number | null = null

  constructor(private readonly thresholds: () => GameThresholds) {}

  /** The game holding the GPU now; null when none. */
  get game(): GameSeen | null {
    return this.current
  }

  look(at: number, look: GameLook): GameChange | null {
    if (look.processes === 'unknown' && look.gameMode === null) return null
    const t = this.thresholds()
    const busy = Array.isArray(look.processes)
      ? look.processes.filter((p) => (p.engine3dPct ?? 0) > t.busyPct && (p.dedicatedMiB ?? 0) > t.vramMiB)
      : []
    if (look.processes !== 'unknown') {
      for (const pid of [...this.counting.keys()]) if (!busy.some((p) => p.pid === pid)) this.counting.delete(pid)
      for (const p of busy) if (!this.counting.has(p.pid)) this.counting.set(p.pid, at)
    }
    const holdMs = look.fullScreen === true ? 0 : t.holdS * 1000
    const held = busy
      .filter((p) => at - (this.counting.get(p.pid) ?? at) >= holdMs)
      .sort((a, b) => (b.dedicatedMiB ?? 0) - (a.dedicatedMiB ?? 0))[0]
    const fromMode = look.gameMode === true ? (busy.sort((a, b) => (b.dedicatedMiB ?? 0) - (a.dedicatedMiB ?? 0))[0] ?? null) : null
    const chosen = held ?? fromMode
    if (this.current === null) {
      if (!chosen && look.gameMode !== true) return null
      this.current = chosen
        ? { pid: chosen.pid, name: chosen.name ?? `process ${chosen.pid}`, dedicatedMiB: chosen.dedicatedMiB }
        : { pid: null, name: GAME_MODE_NAME, dedicatedMiB: null }
      this.quietSince = null
      return { kind: 'started', game: this.current }
    }
    // A game stays while its process holds the memory (a loading screen or a pause leaves the 3D engine idle), while
    // Game Mode is on, or while another process counts as a game; an unknown look changes nothing.
    const pid = this.current.pid
    const holds =
      look.processes === 'unknown' ||
      (pid !== null && Array.isArray(look.processes) && look.processes.some((p) => p.pid === pid && (p.dedicatedMiB ?? 0) > t.vramMiB))
    if (holds || look.gameMode === true || chosen) {
      this.quietSince = null
      return null
    }
    this.quietSince ??= at
    if (at - this.quietSince < t.backAfterS * 1000) return null
    const ended = this.current
    this.current = null
    this.quietSince = null
    this.counting.clear()
    return { kind: 'ended', game: ended }
  }
}
