import type { SyntheticGguf, SyntheticValue } from './write-gguf'

/** The tokenizer of a real GGUF, as @huggingface/gguf reads its metadata. */
export type TokenizerSource = Readonly<Record<string, unknown>>

const TOKENIZER_KEYS = [
  'tokenizer.ggml.model',
  'tokenizer.ggml.pre',
  'tokenizer.ggml.merges',
  'tokenizer.ggml.eos_token_id',
  'tokenizer.ggml.bos_token_id',
  'tokenizer.ggml.padding_token_id',
  'tokenizer.ggml.add_bos_token',
  'tokenizer.chat_template',
]

function asValue(v: unknown): SyntheticValue | null {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v
  if (typeof v === 'bigint') return Number(v)
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[]
  return null
}

/**
 * Makes a synthetic GGUF table loadable by llama-server, so that a real build
 * can report the buffers of a 20 GB model without the model: the rope and norm
 * keys llama.cpp requires (Qwen3.5/3.6 values) and a tokenizer borrowed from a
 * small real GGUF, its vocabulary padded with unused tokens to the size of the
 * synthetic embedding table. Token types are left out: llama.cpp treats them
 * as optional and wants them as i32.
 */
export function loadableGguf(spec: SyntheticGguf, tokenizer: TokenizerSource): SyntheticGguf {
  const arch = spec.metadata['general.architecture']
  if (typeof arch !== 'string') throw new Error('synthetic GGUF without general.architecture')
  const embd = spec.tensors.find((t) => t.name === 'token_embd.weight')
  const vocab = embd?.shape[1]
  if (vocab === undefined) throw new Error('synthetic GGUF without token_embd.weight')
  const tokens = tokenizer['tokenizer.ggml.tokens']
  if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string'))
    throw new Error('the tokenizer source has no tokenizer.ggml.tokens')
  if (tokens.length > vocab)
    throw new Error(`the tokenizer source has ${tokens.length} tokens, more than the synthetic vocabulary (${vocab})`)
  const padded = [...(tokens as string[])]
  for (let i = padded.length; i < vocab; i++) padded.push(`<|synthetic_unused_${i}|>`)

  const metadata: Record<string, SyntheticValue> = {
    ...spec.metadata,
    [`${arch}.rope.freq_base`]: { f32: 10_000_000 },
    [`${arch}.rope.dimension_count`]: 64,
    [`${arch}.rope.dimension_sections`]: [11, 11, 10, 0],
    [`${arch}.attention.layer_norm_rms_epsilon`]: { f32: 1e-6 },
    'tokenizer.ggml.tokens': padded,
  }
  for (const key of TOKENIZER_KEYS) {
    const value = asValue(tokenizer[key])
    if (value !== null) metadata[key] = value
  }
  return { metadata, tensors: spec.tensors }
}
