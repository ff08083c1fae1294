import { describe, expect, it } from 'vitest'
import { CommandLineError, MAX_ARGUMENTS, tokenizeCommandLine } from './command-line'

describe('tokenizeCommandLine', () => {
  it('keeps Windows paths, bare and quoted, and follows the C runtime rule for backslashes before a quote', () => {
    expect(tokenizeCommandLine('C:\\llama\\llama-server.exe -m "C:\\My Models\\a.gguf"')).toEqual([
      'C:\\llama\\llama-server.exe',
      '-m',
      'C:\\My Models\\a.gguf',
    ])
    expect(tokenizeCommandLine('"\\\\nas\\share\\m.gguf" "dir\\\\" "say \\"hi\\""')).toEqual([
      '\\\\nas\\share\\m.gguf',
      'dir\\',
      'say "hi"',
    ])
  })

  it('joins bash, cmd and PowerShell continuations', () => {
    expect(tokenizeCommandLine('a \\\n b ^\r\n c')).toEqual(['a', 'b', 'c'])
    expect(tokenizeCommandLine('a `\n b')).toEqual(['a', 'b'])
  })

  it('reads PowerShell: the call operator and doubled quotes', () => {
    expect(tokenizeCommandLine("& 'C:\\x y\\llama-server.exe' -m 'it''s.gguf'")).toEqual(['C:\\x y\\llama-server.exe', '-m', "it's.gguf"])
  })

  it('refuses variables by dialect', () => {
    expect(() => tokenizeCommandLine('-m $HOME/a')).toThrow(CommandLineError)
    expect(() => tokenizeCommandLine('-m %USERPROFILE%\\a', { dialect: 'cmd' })).toThrow(/variable/)
    expect(tokenizeCommandLine('--api-key "a$b"', { dialect: 'cmd' })).toEqual(['--api-key', 'a$b'])
    expect(tokenizeCommandLine("--api-key '%X%'", { dialect: 'posix' })).toEqual(['--api-key', '%X%'])
  })
})

describe('tokenizeCommandLine on hostile pastes (issue #26)', () => {
  it('refuses a line break that starts a second command, naming its line', () => {
    expect(() => tokenizeCommandLine('llama-server -m a.gguf\nrm -rf ~')).toThrow(
      /^Line 2 of the pasted text starts a second command: .*\.$/,
    )
    expect(() => tokenizeCommandLine('llama-server \\\n -m a.gguf\r\n-c 4096')).toThrow(
      /^Line 3 of the pasted text starts a second command/,
    )
    expect(() => tokenizeCommandLine('a ^\n\n b')).toThrow(CommandLineError)
  })

  it('still joins continuations, keeps a quoted line break, and ignores blank lines around the command', () => {
    expect(tokenizeCommandLine('\n\r\n  llama-server \\\n  -m a.gguf ^\r\n  -c 1 `\n  -fa on\n\n')).toEqual([
      'llama-server',
      '-m',
      'a.gguf',
      '-c',
      '1',
      '-fa',
      'on',
    ])
    expect(tokenizeCommandLine('llama-server --chat-template "line 1\nline 2"')).toEqual([
      'llama-server',
      '--chat-template',
      'line 1\nline 2',
    ])
  })

  it('refuses a NUL character anywhere', () => {
    expect(() => tokenizeCommandLine('llama-server -m a\u0000b.gguf')).toThrow(/^The command holds a NUL character \(at character 18\)/)
    expect(() => tokenizeCommandLine("llama-server -m 'a\u0000'")).toThrow(CommandLineError)
  })

  it(`takes ${MAX_ARGUMENTS} arguments and refuses one more (200,000 as well)`, () => {
    expect(tokenizeCommandLine(Array.from({ length: MAX_ARGUMENTS }, () => 'x').join(' '))).toHaveLength(MAX_ARGUMENTS)
    expect(() => tokenizeCommandLine(Array.from({ length: MAX_ARGUMENTS + 1 }, () => 'x').join(' '))).toThrow(/more than 4,096 arguments/)
    expect(() => tokenizeCommandLine('x '.repeat(200_000))).toThrow(/^The command has more than 4,096 arguments, .*\.$/)
  })
})

describe('tokenizeCommandLine on unusual white space', () => {
  it('separates on any white space (a no-break space or a vertical tab used to loop forever)', () => {
    expect(tokenizeCommandLine('llama-server\u00a0-m\u000ba.gguf\u000c-c\u20034096\u2028-fa on')).toEqual([
      'llama-server',
      '-m',
      'a.gguf',
      '-c',
      '4096',
      '-fa',
      'on',
    ])
  })
})
