import { describe, expect, it } from 'vitest'
import { UsageError } from './cli-error'
import { parseServeArgs } from './commands/serve'
import { portNumber } from './parse-options'

describe('portNumber', () => {
  it('takes whole port numbers only', () => {
    expect(portNumber('port', undefined)).toBeNull()
    expect(portNumber('port', '1')).toBe(1)
    expect(portNumber('port', '8080')).toBe(8080)
    expect(portNumber('port', '65535')).toBe(65_535)
    for (const text of ['1e3', '0x50', '80.0', '80.5', '', ' 80', '0', '65536', '-1', 'abc']) {
      expect(() => portNumber('port', text), text).toThrow(UsageError)
      expect(() => portNumber('port', text), text).toThrow(`--port needs a port number, a whole number from 1 to 65535, got "${text}"`)
    }
  })

  it('is what llama-tray serve --port uses: 1e3 is refused, not taken for 1000', () => {
    expect(parseServeArgs(['--port', '9000']).port).toBe(9000)
    expect(() => parseServeArgs(['--port', '1e3'])).toThrow('--port needs a port number, a whole number from 1 to 65535, got "1e3"')
  })
})
