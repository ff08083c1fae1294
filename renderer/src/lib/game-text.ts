import type { GameHold } from '../../../app/contract/game'

/**
 * The game holding the GPU and what the onGame setting did for it, in one sentence ("Cyberpunk2077.exe is using
 * the GPU, so the server is stopped until it ends."); null when no game holds it.
 */
export function gameText(game: GameHold | null | undefined): string | null {
  if (!game) return null
  // "a game (Game Mode is on)" when only Game Mode said so: the sentence starts with a capital.
  const who = game.name.charAt(0).toUpperCase() + game.name.slice(1)
  if (game.action === 'stopped') return `${who} is using the GPU, so the server is stopped until it ends.`
  if (game.action === 'sleeping') return `${who} is using the GPU, so the server sleeps until it ends (a request wakes it).`
  return `${who} is using the GPU.`
}

/** Whether "Keep running during games" helps: the server was stopped or put to sleep for the game. */
export function gameFreedVram(game: GameHold | null | undefined): boolean {
  return game?.action === 'stopped' || game?.action === 'sleeping'
}
