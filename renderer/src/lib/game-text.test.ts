import { describe, expect, it } from 'vitest'
import type { GameHold } from '../../../app/contract/game'
import { gameFreedVram, gameText } from './game-text'

const GAME: GameHold = { name: 'Cyberpunk2077.exe', pid: 15320, dedicatedMiB: 5120, since: 0, action: 'stopped' }

describe('the game line', () => {
  it.each([
    ['stopped', 'Cyberpunk2077.exe is using the GPU, so the server is stopped until it ends.', true],
    ['sleeping', 'Cyberpunk2077.exe is using the GPU, so the server sleeps until it ends (a request wakes it).', true],
    ['kept', 'Cyberpunk2077.exe is using the GPU.', false],
  ] as const)('%s → one sentence; the button only when the VRAM was freed', (action, text, button) => {
    expect(gameText({ ...GAME, action })).toBe(text)
    expect(gameFreedVram({ ...GAME, action })).toBe(button)
  })

  it('Game Mode alone names no process: the sentence still starts with a capital', () => {
    expect(gameText({ ...GAME, name: 'a game (Game Mode is on)', pid: null, dedicatedMiB: null })).toBe(
      'A game (Game Mode is on) is using the GPU, so the server is stopped until it ends.',
    )
  })

  it('no game: no line', () => {
    expect(gameText(null)).toBeNull()
    expect(gameText(undefined)).toBeNull()
    expect(gameFreedVram(null)).toBe(false)
  })
})
