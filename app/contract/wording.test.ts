import { describe, expect, it } from 'vitest'
import { asSentence, failureSentence, sentences } from './wording'

describe('asSentence', () => {
  it('capitalises the start and after every full stop, and ends with one', () => {
    expect(asSentence('the model file does not exist: a.gguf. check the -m path')).toBe(
      'The model file does not exist: a.gguf. Check the -m path.',
    )
    expect(asSentence('  done!  ')).toBe('Done!')
    expect(asSentence('use -fa on (or off).')).toBe('Use -fa on (or off).')
    expect(asSentence('it said "stop." then left')).toBe('It said "stop." Then left.')
  })

  it('keeps a file name, a path or a flag as written at the start of a sentence', () => {
    expect(asSentence('tiny-target-IQ4_XS.gguf does not match its sha256')).toBe('tiny-target-IQ4_XS.gguf does not match its sha256.')
    expect(asSentence('nothing was kept. /models/a.gguf is gone')).toBe('Nothing was kept. /models/a.gguf is gone.')
    expect(asSentence('--no-mmap is gone')).toBe('--no-mmap is gone.')
  })

  it('keeps llama.cpp in lower case, at the start and after a full stop', () => {
    expect(asSentence('llama.cpp v0.5.0 has no CPU build. llama.cpp b7000 has one')).toBe(
      'llama.cpp v0.5.0 has no CPU build. llama.cpp b7000 has one.',
    )
  })

  it('leaves numbers, paths, flags and abbreviations alone', () => {
    expect(asSentence('1.5 GB free on /a/b.gguf, e.g. raise -c 4096')).toBe('1.5 GB free on /a/b.gguf, e.g. raise -c 4096.')
    expect(asSentence('')).toBe('')
  })
})

describe('sentences and failureSentence', () => {
  it('join fragments as sentences and leave out the empty ones', () => {
    expect(sentences('llama-server was killed by SIGKILL', null, '', 'see the last log lines')).toBe(
      'Llama-server was killed by SIGKILL. See the last log lines.',
    )
    expect(failureSentence('port 8080 is in use', null)).toBe('Port 8080 is in use.')
  })
})
