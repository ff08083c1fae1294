import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CommandLineError, MAX_ARGUMENTS, tokenizeCommandLine } from '../../app/lib/command-line'
import { importCommand, ImportError } from '../../app/profiles/import-command'
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS, WorstCase } from './fuzz-runs'

// The characters that matter to the reader, mixed with any others.
const SPECIAL = [
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\\',
  '^',
  '`',
  '"',
  "'",
  '\u2018',
  '\u2019',
  '&',
  '|',
  ';',
  '>',
  '<',
  '$',
  '%',
  '(',
  ')',
  '{',
  '}',
  '=',
  '-',
  '--',
  '\u0000',
  '\u001b[31m',
  '\u009b',
  '-m',
  'llama-server',
]
const pasted = fc
  .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 64 })
  .map((parts) => parts.join(''))

describe('fuzzing the command-line reader', () => {
  it(
    'throws only CommandLineError, never keeps a NUL, and stays under the argument cap',
    () => {
      const worst = new WorstCase('command line')
      fc.assert(
        fc.property(
          pasted,
          fc.constantFrom('auto', 'posix', 'cmd', 'powershell') as fc.Arbitrary<'auto' | 'posix' | 'cmd' | 'powershell'>,
          (text, dialect) => {
            worst.measureSync(JSON.stringify(text).slice(0, 80), () => {
              try {
                const argv = tokenizeCommandLine(text, { dialect })
                expect(argv.length).toBeLessThanOrEqual(MAX_ARGUMENTS)
                expect(argv.some((a) => a.includes('\u0000'))).toBe(false)
              } catch (err) {
                if (!(err instanceof CommandLineError)) throw err
                expect(err.position).toBeGreaterThanOrEqual(0)
              }
            })
          },
        ),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )

  it(
    'importCommand throws only ImportError on the same input',
    () => {
      fc.assert(
        fc.property(pasted, fc.option(fc.string({ unit: 'binary', maxLength: 20 }), { nil: undefined }), (text, name) => {
          try {
            importCommand(text, { ...(name !== undefined ? { name } : {}) })
          } catch (err) {
            if (!(err instanceof ImportError)) throw err
          }
        }),
        { numRuns: FUZZ_RUNS },
      )
    },
    FUZZ_TIMEOUT_MS,
  )

  it(
    'long pastes: many arguments and long lines cost time in proportion, then stop at the cap',
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 3 * MAX_ARGUMENTS }), fc.constantFrom(' ', ' \\\n', ' ^\r\n', '\t'), (count, separator) => {
          const text = Array.from({ length: count }, (_, i) => `--a${i}`).join(separator)
          try {
            expect(tokenizeCommandLine(text)).toHaveLength(count)
          } catch (err) {
            if (!(err instanceof CommandLineError)) throw err
            expect(count).toBeGreaterThan(MAX_ARGUMENTS)
          }
        }),
        { numRuns: Math.max(1, Math.floor(FUZZ_RUNS / 10)) },
      )
    },
    FUZZ_TIMEOUT_MS,
  )
})
