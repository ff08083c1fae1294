import { describe, expect, it } from 'vitest'
import { portOverride, PortOverrideError } from './port-override'

describe('$LLAMA_TRAY_PORT', () => {
  it('is a port, 0 for any free port, or nothing', () => {
    expect(portOverride({ LLAMA_TRAY_PORT: '8081' })).toBe(8081)
    expect(portOverride({ LLAMA_TRAY_PORT: ' 0 ' })).toBe(0)
    expect(portOverride({ LLAMA_TRAY_PORT: '65535' })).toBe(65_535)
    for (const raw of [undefined, '', '  ']) expect(portOverride({ LLAMA_TRAY_PORT: raw })).toBeNull()
  })

  it('refuses anything else with one sentence naming the variable and the valid range', () => {
    for (const raw of ['abc', '70000', '65536', '-1', '80.5', '1e3', '0x50', '8080abc']) {
      expect(() => portOverride({ LLAMA_TRAY_PORT: raw }), raw).toThrow(PortOverrideError)
      expect(() => portOverride({ LLAMA_TRAY_PORT: raw }), raw).toThrow(
        `LLAMA_TRAY_PORT is "${raw}", which is not a port: set it to a whole number from 0 (any free port) to 65535, or unset it.`,
      )
    }
  })
})
