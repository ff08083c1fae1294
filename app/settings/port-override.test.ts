import { describe, expect, it } from 'vitest'
import { portOverride } from './port-override'

describe('$LLAMA_TRAY_PORT', () => {
  it('is a port, 0 for any free port, or nothing', () => {
    expect(portOverride({ LLAMA_TRAY_PORT: '8081' })).toBe(8081)
    expect(portOverride({ LLAMA_TRAY_PORT: ' 0 ' })).toBe(0)
    for (const raw of [undefined, '', 'abc', '-1', '70000', '80.5']) expect(portOverride({ LLAMA_TRAY_PORT: raw })).toBeNull()
  })
})
