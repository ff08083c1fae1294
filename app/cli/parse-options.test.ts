import { describe, expect, it } from 'vitest'
import { UsageError } from './cli-error'
import { parseGpuArgs } from './commands/gpu'
import { parseRunArgs } from './commands/run'
import { parseServeArgs } from './commands/serve'
import { parseOptions, portNumber } from './parse-options'

/** The sentence a UsageError carries, or a failure when none is thrown. */
function refusal(parse: () => unknown): string {
  try {
    parse()
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError)
    return (err as Error).message
  }
  throw new Error('expected a UsageError')
}

const sentence = /^[A-Z-].*\.$/s

describe('parseOptions says what was mistyped and what to type instead (issue #25)', () => {
  it('suggests the closest option for a typo', () => {
    const message = refusal(() => parseRunArgs(['x', '--duraton', '5']))
    expect(message).toBe("Unknown option --duraton (did you mean --duration?); --help lists this command's options.")
  })

  it('lists the options when no option is close', () => {
    expect(refusal(() => parseGpuArgs(['--bogus']))).toBe(
      'Unknown option --bogus; this command takes --json, --watch, --interval, --backend, --verbose.',
    )
    expect(refusal(() => parseOptions(['-z'], { json: { type: 'boolean', short: 'j' } }))).toBe(
      'Unknown option -z; this command takes --json.',
    )
  })

  it("judges a negative number by the option's own rule instead of calling it ambiguous", () => {
    expect(refusal(() => parseGpuArgs(['--interval', '-5']))).toBe(
      'The option --interval takes a number of milliseconds above 0, like 1000; "-5" is not one.',
    )
    expect(refusal(() => parseRunArgs(['x', '--duration', '0']))).toBe(
      'The option --duration takes a number of seconds above 0, like 60; "0" is not one.',
    )
    expect(refusal(() => parseRunArgs(['x', '--duration', 'soon']))).toBe(
      'The option --duration takes a number of seconds above 0, like 60; "soon" is not one.',
    )
    expect(parseGpuArgs(['--interval', '250']).intervalMs).toBe(250)
    expect(parseGpuArgs(['--interval=500']).intervalMs).toBe(500)
  })

  it('says a value is missing, and that a switch takes none', () => {
    expect(refusal(() => parseGpuArgs(['--interval']))).toBe('The option --interval needs a value right after it (or as --interval=VALUE).')
    expect(refusal(() => parseGpuArgs(['--interval', '--json']))).toBe(
      'The option --interval needs a value right after it (or as --interval=VALUE).',
    )
    expect(refusal(() => parseGpuArgs(['--json=yes']))).toBe('The option --json takes no value; write --json on its own.')
    expect(refusal(() => parseGpuArgs(['extra']))).toBe('Unexpected argument "extra"; this command takes only options (--help lists them).')
  })

  it('never passes on the parser\'s own text (quotes, "ambiguous", "To specify")', () => {
    const inputs = [['--duraton', '5'], ['--"x'], ["--it's"], ['--interval', '-x'], ['-'], ['--'], ['--json', '--json=1'], ['-jz']]
    for (const args of inputs) {
      let message: string | null = null
      try {
        parseOptions(args, { json: { type: 'boolean', short: 'j' }, interval: { type: 'string' } }, false)
      } catch (err) {
        expect(err, args.join(' ')).toBeInstanceOf(UsageError)
        message = (err as Error).message
      }
      if (message === null) continue
      expect(message, args.join(' ')).toMatch(sentence)
      expect(message, args.join(' ')).not.toMatch(/ambiguous|To specify|positional argument|'-/)
    }
  })
})

describe('portNumber', () => {
  it('takes whole port numbers only', () => {
    expect(portNumber('port', undefined)).toBeNull()
    expect(portNumber('port', '1')).toBe(1)
    expect(portNumber('port', '8080')).toBe(8080)
    expect(portNumber('port', '65535')).toBe(65_535)
    for (const text of ['1e3', '0x50', '80.0', '80.5', '', ' 80', '0', '65536', '-1', 'abc']) {
      expect(() => portNumber('port', text), text).toThrow(UsageError)
      expect(() => portNumber('port', text), text).toThrow(
        `The option --port needs a port number, a whole number from 1 to 65535, got "${text}".`,
      )
    }
  })

  it('is what llama-tray serve --port uses: 1e3 is refused, not taken for 1000', () => {
    expect(parseServeArgs(['--port', '9000']).port).toBe(9000)
    expect(() => parseServeArgs(['--port', '1e3'])).toThrow(
      'The option --port needs a port number, a whole number from 1 to 65535, got "1e3".',
    )
  })
})
