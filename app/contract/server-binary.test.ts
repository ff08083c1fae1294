import { describe, expect, it } from 'vitest'
import { isOneBinaryLlama, serverSubcommand } from './server-binary'

describe('serverSubcommand', () => {
  it("is serve for llama.cpp's one program, on either OS's paths", () => {
    expect(serverSubcommand('/usr/local/bin/llama')).toEqual(['serve'])
    expect(serverSubcommand('C:\\Users\\me\\AppData\\Local\\Microsoft\\WinGet\\Links\\llama.exe')).toEqual(['serve'])
    expect(serverSubcommand('LLAMA.EXE')).toEqual(['serve'])
  })

  it('is nothing for a llama-server or anything else named like llama', () => {
    expect(serverSubcommand('/opt/llama/llama-server')).toEqual([])
    expect(serverSubcommand('C:\\llama\\llama-server.exe')).toEqual([])
    expect(isOneBinaryLlama('/opt/llama/')).toBe(false)
    expect(isOneBinaryLlama('llama-cli')).toBe(false)
  })
})
