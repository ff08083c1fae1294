import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FLAGS } from '../contract/flag-registry'
import { Redactor, SECRET_FLAG_SPELLINGS } from './redact'

const none = new Redactor({ secrets: [], userNames: [] })

describe('Redactor', () => {
  it('takes every spelling of the secret flags from the flag registry', () => {
    const named = (name: string): readonly string[] => FLAGS.find((d) => d.name === name)?.spellings ?? []
    expect([...SECRET_FLAG_SPELLINGS].sort()).toEqual([...named('api-key'), ...named('hf-token')].sort())
    expect(SECRET_FLAG_SPELLINGS).toEqual(expect.arrayContaining(['--api-key', '--hf-token', '-hft']))
  })

  it.each([
    ['llama-server --api-key abc123 -c 4096', 'llama-server --api-key *** -c 4096'],
    ['llama-server --api-key=abc123', 'llama-server --api-key=***'],
    ["llama-server --api-key 'a b c'", 'llama-server --api-key ***'],
    ['-hft hf_tokentoken --hf-token=xyz1', '-hft *** --hf-token=***'],
    ['["--api-key", "abc123", "-c"]', '["--api-key", "***", "-c"]'],
    ['LLAMA_API_KEY=abc123 HF_TOKEN=xyz', 'LLAMA_API_KEY=*** HF_TOKEN=***'],
    [
      '{ "LLAMA_API_KEY": "abc", "apiKey": "def", "apiKeyFile": "/k.txt" }',
      '{ "LLAMA_API_KEY": "***", "apiKey": "***", "apiKeyFile": "/k.txt" }',
    ],
    ['Authorization: Bearer abc.def-123', 'Authorization: Bearer ***'],
    ['x-api-key: abc123', 'x-api-key: ***'],
    ['token hf_AbCdEfGh12345 and ghp_0123456789abcdefABCD and sk-0123456789abcdefXYZ', 'token *** and *** and ***'],
  ])('redacts %j', (input, output) => {
    expect(none.text(input)).toBe(output)
  })

  it.each([
    "print_info: EOS token        = 151645 '<|im_end|>'",
    'llama_model_loader: - kv  23: tokenizer.ggml.add_bos_token bool = true',
    '{ "maxTokens": 128, "tokens": 64 }',
    'slot update_slots: id  0 | task 0 | new prompt, n_ctx_slot = 4096, n_keep = 0, n_prompt_tokens = 12',
    'Basic settings: --api-key-file /etc/llama/keys.txt',
  ])('leaves %j alone', (line) => {
    expect(none.text(line)).toBe(line)
  })

  it("removes the user's name from Linux, macOS and Windows paths (JSON-escaped too) and alone, not a 2-letter name in words", () => {
    const r = new Redactor({ secrets: [], userNames: ['Alice', 'al', null] })
    const paths = '/home/alice/x /Users/Alice/y C:\\Users\\ALICE\\z C:/Users/alice/w "C:\\\\Users\\\\alice\\\\m.gguf" user alice.'
    expect(r.text(paths)).toBe(
      '/home/<user>/x /Users/<user>/y C:\\Users\\<user>\\z C:/Users/<user>/w "C:\\\\Users\\\\<user>\\\\m.gguf" user <user>.',
    )
    expect(r.text('all metal loaded')).toBe('all metal loaded')
    expect(r.text('/home/al/models')).toBe('/home/<user>/models')
  })

  it('removes a known secret wherever it appears in any text, also inside JSON', () => {
    const secrets = fc.stringMatching(/^[A-Za-z0-9_.-]{4,40}$/)
    fc.assert(
      fc.property(secrets, fc.string(), fc.string(), (secret, before, after) => {
        const r = new Redactor({ secrets: [secret], userNames: [] })
        expect(r.text(`${before}${secret}${after}`)).not.toContain(secret)
        expect(r.text(JSON.stringify({ before, v: `${before}${secret}${after}`, after }))).not.toContain(secret)
      }),
      { numRuns: 500 },
    )
  })
})
