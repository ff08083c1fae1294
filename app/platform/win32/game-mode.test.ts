import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import type { Koffi } from '../koffi'
import { WindowsGameMode, isGameMode } from './game-mode'

describe("Windows' Game Mode (the effective power mode)", () => {
  it('is mode 5 of EFFECTIVE_POWER_MODE, and only that one', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(isGameMode)).toEqual([false, false, false, false, false, true, false])
  })

  it('gives the reason where powrprof.dll or koffi is missing (Linux, Wine)', () => {
    expect(WindowsGameMode.open(() => 'koffi (the FFI module) could not be loaded: x')).toBe(
      'koffi (the FFI module) could not be loaded: x',
    )
    const koffi = createRequire(import.meta.url)('koffi') as Koffi
    expect(WindowsGameMode.open(() => koffi)).toMatch(/^the effective power mode is not available: /)
  })

  it('follows the callback: null before Windows says the mode, then Game Mode on and off, and unregisters on close', () => {
    let callback: ((mode: number) => void) | null = null
    const calls: string[] = []
    const lib = {
      func: (decl: string) => {
        const name = /(Power\w+)\(/.exec(decl)?.[1] as string
        return (...args: unknown[]) => {
          calls.push(name)
          if (name === 'PowerRegisterForEffectivePowerModeNotifications') (args[3] as unknown[])[0] = 7n
          return 0
        }
      },
    }
    const fake = {
      load: () => lib,
      proto: () => ({}),
      pointer: () => ({}),
      register: (fn: (mode: number) => void) => {
        callback = fn
        return 1n
      },
      unregister: () => calls.push('koffi.unregister'),
    } as unknown as Koffi
    const watch = WindowsGameMode.open(() => fake)
    if (typeof watch === 'string') throw new Error(watch)
    expect(watch.read()).toBeNull()
    callback!(5)
    expect(watch.read()).toBe(true)
    callback!(2)
    expect(watch.read()).toBe(false)
    watch.close()
    expect(calls).toEqual([
      'PowerRegisterForEffectivePowerModeNotifications',
      'PowerUnregisterFromEffectivePowerModeNotifications',
      'koffi.unregister',
    ])
  })
})
