import { describe, expect, it } from 'vitest'
import { CommandLineError, tokenizeCommandLine } from './command-line'

describe('tokenizeCommandLine', () => {
  it('keeps Windows paths, bare and quoted, and follows the C runtime rule for backslashes before a quote', () => {
    expect(tokenizeCommandLine('C:\\llama\\llama-server.exe -m "C:\\My Models\\a.gguf"')).toEqual(['C:\\llama\\llama-server.exe', '-m', 'C:\\My Models\\a.gguf'])
    expect(tokenizeCommandLine('"\\\\nas\\share\\m.gguf" "dir\\\\" "say \\"hi\\""')).toEqual(['\\\\nas\\share\\m.gguf', 'dir\\', 'say "hi"'])
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
