import { describe, expect, it } from 'vitest'
import { redactArgs, redactSecretShapes } from './redact'
import { exitInfo } from './supervised-run'

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

// Issue #42 (Low): run --json's problem details carried an unredacted `Authorization: Bearer …` log line.
describe("a failure's details (run --json, --verbose, Why?) are redacted like diagnostics", () => {
  const lines = [
    'srv  log_server_r: request: POST /v1/chat/completions Authorization: Bearer live-secret-key-0123456789',
    'x-api-key: another-secret-key-9876',
    'main: HF_TOKEN=hf_abcdefghijklmnop and --api-key=inline-secret-4321',
    'llama_model_load: error loading model: out of memory',
  ]

  it('keeps the log lines but not the secrets in them', () => {
    const exit = exitInfo({ code: 1, signal: null }, { kind: 'load-failed', reason: 'the model did not load', hint: null }, lines)
    const details = exit.problem?.details ?? ''
    for (const secret of ['live-secret-key-0123456789', 'another-secret-key-9876', 'hf_abcdefghijklmnop', 'inline-secret-4321'])
      expect(details).not.toContain(secret)
    expect(details).toContain('Authorization: Bearer ***')
    expect(details).toContain('llama_model_load: error loading model: out of memory')
    expect(redactSecretShapes('--api-key "quoted secret"')).toBe('--api-key ***')
  })
})
