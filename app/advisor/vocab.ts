import { createHash } from 'node:crypto'
import { readGgufHeader } from '../fit/gguf-header'

/** What speculative decoding compares between a target and its draft (llama.cpp's common_speculative_are_compatible). */
export interface VocabInfo {
  readonly path: string
  /** tokenizer.ggml.model ("gpt2", "llama"…); null when the GGUF does not say. */
  readonly type: string | null
  readonly size: number
  readonly bos: number | null
  readonly eos: number | null
  /** The token texts (null when the GGUF has no token list). */
  readonly tokens: readonly string[] | null
  /** A hash of the token texts, for display and caching. */
  readonly hash: string | null
}

export interface VocabComparison {
  readonly compatible: boolean
  /** Why not, in one phrase ("8192 vs 9000 tokens", "token 8190 is "<think>" vs "<thonk>""). */
  readonly reason: string | null
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null)

/** Reads the tokenizer part of a local GGUF. */
export async function readVocab(path: string): Promise<VocabInfo> {
  const { metadata: md, tensors } = await readGgufHeader(path)
  const list = md['tokenizer.ggml.tokens']
  const tokens = Array.isArray(list) && list.every((t) => typeof t === 'string') ? (list as string[]) : null
  const embd = tensors.find((t) => t.name === 'token_embd.weight')
  const size = tokens ? tokens.length : embd ? Number(embd.shape[1] ?? 0) : 0
  const type = typeof md['tokenizer.ggml.model'] === 'string' ? (md['tokenizer.ggml.model'] as string) : null
  const hash = tokens ? createHash('sha256').update(tokens.join('\u0000')).digest('hex').slice(0, 16) : null
  return { path, type, size, bos: num(md['tokenizer.ggml.bos_token_id']), eos: num(md['tokenizer.ggml.eos_token_id']), tokens, hash }
}

/** llama.cpp allows this many tokens of difference in size (SPEC_VOCAB_MAX_SIZE_DIFFERENCE). */
const MAX_SIZE_DIFFERENCE = 128
/** …and compares token texts from this id on (SPEC_VOCAB_CHECK_START_TOKEN_ID). */
const CHECK_START = 5

/** Whether llama-server would speculate with this draft, by the same checks it makes at load. */
export function compareVocab(target: VocabInfo, draft: VocabInfo): VocabComparison {
  if (target.type !== null && draft.type !== null && target.type !== draft.type)
    return { compatible: false, reason: `tokenizer ${target.type} vs ${draft.type}` }
  if (Math.abs(target.size - draft.size) > MAX_SIZE_DIFFERENCE)
    return { compatible: false, reason: `${target.size} vs ${draft.size} tokens` }
  if (target.bos !== draft.bos && target.bos !== null && draft.bos !== null)
    return { compatible: false, reason: `BOS token ${target.bos} vs ${draft.bos}` }
  if (target.eos !== draft.eos && target.eos !== null && draft.eos !== null)
    return { compatible: false, reason: `EOS token ${target.eos} vs ${draft.eos}` }
  if (target.tokens && draft.tokens) {
    const n = Math.min(target.tokens.length, draft.tokens.length)
    for (let i = CHECK_START; i < n; i++) {
      if (target.tokens[i] !== draft.tokens[i])
        return { compatible: false, reason: `token ${i} is ${JSON.stringify(target.tokens[i])} vs ${JSON.stringify(draft.tokens[i])}` }
    }
  }
  return { compatible: true, reason: null }
}
