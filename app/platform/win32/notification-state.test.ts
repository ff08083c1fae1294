import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import type { Koffi } from '../koffi'
import { WindowsNotificationState, isFullScreenD3d } from './notification-state'

describe('SHQueryUserNotificationState (a hint for the game watch)', () => {
  it("says full-screen Direct3D for QUNS_RUNNING_D3D_FULL_SCREEN (3) only; BUSY (2) and Wine's ACCEPTS_NOTIFICATIONS (5) are not", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(isFullScreenD3d)).toEqual([false, false, true, false, false, false, false])
  })

  it('gives the reason where shell32 is missing (Linux), and null when the call fails', () => {
    const koffi = createRequire(import.meta.url)('koffi') as Koffi
    expect(WindowsNotificationState.open(() => koffi)).toMatch(/^SHQueryUserNotificationState is not available: /)
    let answer: { code: number; state: number } = { code: 0, state: 3 }
    const fake = {
      load: () => ({
        func: () => (out: [number | null]) => {
          out[0] = answer.state
          return answer.code
        },
      }),
    } as unknown as Koffi
    const shell = WindowsNotificationState.open(() => fake)
    if (typeof shell === 'string') throw new Error(shell)
    expect(shell.read()).toBe(true)
    answer = { code: 0, state: 5 }
    expect(shell.read()).toBe(false)
    answer = { code: 0x80004005, state: 3 }
    expect(shell.read()).toBeNull()
  })
})
