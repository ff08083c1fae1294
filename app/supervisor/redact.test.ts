import { describe, expect, it } from 'vitest'
import { redactArgs } from './redact'

describe('redactArgs', () => {
  it('hides the value of every key and token flag, spaced or with =', () => {
    const args = ['-m', 'm.gguf', '--api-key', 'k1', '-hft', 'hf_abc', '--hf-token=hf_def', '--api-key=k2', '--port', '8080']
    expect(redactArgs(args)).toEqual([
      '-m',
      'm.gguf',
      '--api-key',
      '***',
      '-hft',
      '***',
      '--hf-token=***',
      '--api-key=***',
      '--port',
      '8080',
    ])
  })

  it('leaves a key file path and other flags alone, and a trailing flag without a value', () => {
    expect(redactArgs(['--api-key-file', '/k.txt', '-c', '4096', '--api-key'])).toEqual([
      '--api-key-file',
      '/k.txt',
      '-c',
      '4096',
      '--api-key',
    ])
  })
})
