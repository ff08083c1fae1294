/** What the onGame setting does when a game takes the GPU: nothing, the server sleeps (a request wakes it), or it stops. */
export type OnGameSetting = 'keep' | 'sleep' | 'stop'

export const ON_GAME_SETTINGS: readonly OnGameSetting[] = ['keep', 'sleep', 'stop']

/** A game holding the NVIDIA GPU, as the snapshot carries it. */
export interface GameHold {
  /** Its process's image name ("Cyberpunk2077.exe"), or "a game (Game Mode is on)" when only Game Mode said so. */
  readonly name: string
  readonly pid: number | null
  /** Its dedicated GPU memory when seen, MiB; null where unknown. */
  readonly dedicatedMiB: number | null
  /** Epoch ms when the watch decided it is a game. */
  readonly since: number
  /** What was done: the server stopped or put to sleep for it, or kept (onGame keep, or no server of a profile ran). */
  readonly action: 'stopped' | 'sleeping' | 'kept'
}
