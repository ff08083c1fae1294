import { GGML_TYPE_ID } from '../../../app/fit/ggml-types'
import type { SyntheticGguf, SyntheticTensor } from './write-gguf'

/**
 * GGUF tables with the real shapes of the seed's models
 * (from a public training framework's model configuration), quantized the way llama.cpp's
 * Q4_K_M recipe does: Q4_K, with Q6_K for the output, attn_v and ffn_down of
 * the first and last eighth of the layers and every third layer between
 * ("use more bits"); norms, biases and the router in f32; small GDN
 * projections in q8_0.
 */
const F32 = GGML_TYPE_ID.f32 as number
const Q8_0 = GGML_TYPE_ID.q8_0 as number
const Q4_K = GGML_TYPE_ID.q4_k as number
const Q6_K = GGML_TYPE_ID.q6_k as number

function moreBits(il: number, n: number): boolean {
  return il < n / 8 || il >= (7 * n) / 8 || (il - Math.floor(n / 8)) % 3 === 2
}

interface HybridShape {
  readonly arch: 'qwen35moe' | 'qwen35'
  readonly name: string
  readonly layers: number
  readonly hidden: number
  readonly vocab: number
  readonly heads: number
  readonly headsKv: number
  readonly headDim: number
  readonly keyHeads: number
  readonly valueHeads: number
  readonly linearHeadDim: number
  readonly ffn: number
  readonly experts: number
  readonly expertsUsed: number
  readonly expertFfn: number
  readonly sharedFfn: number
  readonly tiedEmbeddings: boolean
  readonly trainingContext: number
}

function hybridGguf(s: HybridShape): SyntheticGguf {
  const t: SyntheticTensor[] = []
  const add = (name: string, shape: number[], typeId: number): void => {
    t.push({ name, shape, typeId })
  }
  add('token_embd.weight', [s.hidden, s.vocab], s.tiedEmbeddings ? Q6_K : Q4_K)
  add('output_norm.weight', [s.hidden], F32)
  if (!s.tiedEmbeddings) add('output.weight', [s.hidden, s.vocab], Q6_K)
  const qkDim = s.keyHeads * s.linearHeadDim
  const vDim = s.valueHeads * s.linearHeadDim
  for (let il = 0; il < s.layers; il++) {
    const p = `blk.${il}.`
    const more = moreBits(il, s.layers)
    add(`${p}attn_norm.weight`, [s.hidden], F32)
    add(`${p}post_attention_norm.weight`, [s.hidden], F32)
    if ((il + 1) % 4 === 0) {
      add(`${p}attn_q.weight`, [s.hidden, 2 * s.heads * s.headDim], Q4_K)
      add(`${p}attn_k.weight`, [s.hidden, s.headsKv * s.headDim], Q4_K)
      add(`${p}attn_v.weight`, [s.hidden, s.headsKv * s.headDim], more ? Q6_K : Q4_K)
      add(`${p}attn_output.weight`, [s.heads * s.headDim, s.hidden], Q4_K)
      add(`${p}attn_q_norm.weight`, [s.headDim], F32)
      add(`${p}attn_k_norm.weight`, [s.headDim], F32)
    } else {
      add(`${p}attn_qkv.weight`, [s.hidden, 2 * qkDim + vDim], Q4_K)
      add(`${p}attn_gate.weight`, [s.hidden, vDim], Q4_K)
      add(`${p}ssm_conv1d.weight`, [4, 2 * qkDim + vDim], F32)
      add(`${p}ssm_dt.bias`, [s.valueHeads], F32)
      add(`${p}ssm_a`, [s.valueHeads], F32)
      add(`${p}ssm_beta.weight`, [s.hidden, s.valueHeads], Q8_0)
      add(`${p}ssm_alpha.weight`, [s.hidden, s.valueHeads], Q8_0)
      add(`${p}ssm_norm.weight`, [s.linearHeadDim], F32)
      add(`${p}ssm_out.weight`, [vDim, s.hidden], Q4_K)
    }
    if (s.experts > 0) {
      add(`${p}ffn_gate_inp.weight`, [s.hidden, s.experts], F32)
      add(`${p}ffn_gate_exps.weight`, [s.hidden, s.expertFfn, s.experts], Q4_K)
      add(`${p}ffn_up_exps.weight`, [s.hidden, s.expertFfn, s.experts], Q4_K)
      add(`${p}ffn_down_exps.weight`, [s.expertFfn, s.hidden, s.experts], more ? Q6_K : Q4_K)
      add(`${p}ffn_gate_inp_shexp.weight`, [s.hidden], F32)
      add(`${p}ffn_gate_shexp.weight`, [s.hidden, s.sharedFfn], Q4_K)
      add(`${p}ffn_up_shexp.weight`, [s.hidden, s.sharedFfn], Q4_K)
      add(`${p}ffn_down_shexp.weight`, [s.sharedFfn, s.hidden], more ? Q6_K : Q4_K)
    } else {
      add(`${p}ffn_gate.weight`, [s.hidden, s.ffn], Q4_K)
      add(`${p}ffn_up.weight`, [s.hidden, s.ffn], Q4_K)
      add(`${p}ffn_down.weight`, [s.ffn, s.hidden], more ? Q6_K : Q4_K)
    }
  }
  const a = s.arch
  const metadata: Record<string, number | string> = {
    'general.architecture': a,
    'general.name': s.name,
    'general.file_type': 15,
    [`${a}.context_length`]: s.trainingContext,
    [`${a}.embedding_length`]: s.hidden,
    [`${a}.block_count`]: s.layers,
    [`${a}.attention.head_count`]: s.heads,
    [`${a}.attention.head_count_kv`]: s.headsKv,
    [`${a}.attention.key_length`]: s.headDim,
    [`${a}.attention.value_length`]: s.headDim,
    [`${a}.ssm.conv_kernel`]: 4,
    [`${a}.ssm.state_size`]: s.linearHeadDim,
    [`${a}.ssm.group_count`]: s.keyHeads,
    [`${a}.ssm.time_step_rank`]: s.valueHeads,
    [`${a}.ssm.inner_size`]: vDim,
    [`${a}.full_attention_interval`]: 4,
  }
  if (s.experts > 0) {
    metadata[`${a}.expert_count`] = s.experts
    metadata[`${a}.expert_used_count`] = s.expertsUsed
    metadata[`${a}.expert_feed_forward_length`] = s.expertFfn
    metadata[`${a}.expert_shared_feed_forward_length`] = s.sharedFfn
  } else metadata[`${a}.feed_forward_length`] = s.ffn
  return { metadata, tensors: t }
}

/** Qwen3.6-35B-A3B (qwen35moe): 40 layers, 10 full attention, 256 experts of 512, top-8, shared expert. */
export function qwen36MoeGguf(): SyntheticGguf {
  return hybridGguf({
    arch: 'qwen35moe',
    name: 'synthetic Qwen3.6-35B-A3B Q4_K_M',
    layers: 40,
    hidden: 2048,
    vocab: 248320,
    heads: 16,
    headsKv: 2,
    headDim: 256,
    keyHeads: 16,
    valueHeads: 32,
    linearHeadDim: 128,
    ffn: 0,
    experts: 256,
    expertsUsed: 8,
    expertFfn: 512,
    sharedFfn: 512,
    tiedEmbeddings: false,
    trainingContext: 262144,
  })
}

/**
 * Qwen3.5-0.8B (qwen35, dense hybrid), the seed's draft. Its linear-attention heads (16 × 128 for keys and values) and tied embeddings are
 * assumptions: the seed notes do not give them.
 */
export function qwen35SmallGguf(): SyntheticGguf {
  return hybridGguf({
    arch: 'qwen35',
    name: 'synthetic Qwen3.5-0.8B Q4_K_M',
    layers: 24,
    hidden: 1024,
    vocab: 248320,
    heads: 8,
    headsKv: 2,
    headDim: 256,
    keyHeads: 16,
    valueHeads: 16,
    linearHeadDim: 128,
    ffn: 3584,
    experts: 0,
    expertsUsed: 0,
    expertFfn: 0,
    sharedFfn: 0,
    tiedEmbeddings: true,
    trainingContext: 262144,
  })
}
