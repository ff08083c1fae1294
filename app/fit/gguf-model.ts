import { cutText, MAX_LISTED_NAME } from '../lib/cut-text'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { FitError } from './fit-error'
import { GgufError } from './gguf-error'
import { quoted, readGgufHeader, type GgufHeader, type GgufValue } from './gguf-header'
import { MODEL_LIMITS, outOfRange, type LimitedKey } from './gguf-model-limits'
import { isKnownGgmlType, tensorBytes } from './ggml-types'

/** One tensor of the table: its layer (null for token_embd, output…), expert or not, and its bytes. */
export interface ModelTensor {
  readonly name: string
  readonly layer: number | null
  /** A routed-expert tensor (ffn_{up,gate,down,gate_up}_exps), the ones --n-cpu-moe moves. */
  readonly expert: boolean
  readonly typeId: number
  readonly shape: readonly number[]
  readonly bytes: number
}

/** Per-layer shape of the attention and recurrent parts. */
export interface LayerShape {
  readonly index: number
  readonly kind: 'attention' | 'recurrent' | 'nextn'
  /** K and V row widths per cell (n_head_kv × head size); 0 for recurrent layers. */
  readonly kvEmbdK: number
  readonly kvEmbdV: number
}

/** The part of a GGUF the estimator needs. */
export interface GgufModel {
  readonly path: string
  readonly fileBytes: number
  readonly architecture: string
  readonly blockCount: number
  readonly nextnLayers: number
  readonly embedding: number
  readonly headCount: number
  /** Query width of an attention layer: heads × key length. */
  readonly queryWidth: number
  readonly vocab: number
  readonly trainingContext: number
  readonly feedForward: number
  readonly expertCount: number
  readonly expertUsed: number
  readonly expertFeedForward: number
  readonly layers: readonly LayerShape[]
  /** Recurrent state per layer per sequence, bytes (f32): R is the conv state, S the SSM/GDN state. */
  readonly recurrentRBytes: number
  readonly recurrentSBytes: number
  /** Channels of the recurrent layers' short convolution (qkv width for Gated DeltaNet). */
  readonly convChannels: number
  readonly tensors: readonly ModelTensor[]
}

/** Architectures the estimator knows. Hybrid ones have recurrent layers. */
const TRANSFORMERS = new Set([
  'llama',
  'mistral',
  'mistral3',
  'qwen2',
  'qwen2moe',
  'qwen3',
  'qwen3moe',
  'gemma',
  'gemma2',
  'gemma3',
  'phi3',
  'gpt-oss',
  'glm4',
  'glm4moe',
  'deepseek2',
  'granite',
  'olmo2',
  'command-r',
  'cohere2',
  'starcoder2',
])
const HYBRID_GDN = new Set(['qwen35', 'qwen35moe', 'qwen3next'])
export const KNOWN_ARCHITECTURES: readonly string[] = [...TRANSFORMERS, ...HYBRID_GDN].sort()

const EXPERT_TENSOR = /\.ffn_(up|down|gate|gate_up)_(ch)?exps\b/

type Metadata = Readonly<Record<string, GgufValue>>

function num(md: Metadata, key: string): number | undefined {
  const v = md[key]
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  return undefined
}

/** A per-layer value: a scalar, or an array (some GGUFs store head counts per layer). */
function perLayer(md: Metadata, key: string, layer: number): number | undefined {
  const v = md[key]
  if (Array.isArray(v)) {
    const x: unknown = v[layer]
    return typeof x === 'number' ? x : typeof x === 'bigint' ? Number(x) : undefined
  }
  return num(md, key)
}

function required(md: Metadata, key: string, file: string): number {
  const v = num(md, key)
  if (v === undefined || !Number.isFinite(v) || v < 0) throw new GgufError(file, `it has no "${key}" (needed to estimate memory)`)
  return v
}

function layerOf(name: string): number | null {
  const m = /^blk\.(\d+)\./.exec(name)
  return m ? Number(m[1]) : null
}

/** Which layers are full attention in a Gated-DeltaNet hybrid: every full_attention_interval-th, else where attention tensors exist. */
function gdnAttentionLayers(md: Metadata, arch: string, blocks: number, tensors: readonly ModelTensor[]): Set<number> {
  const interval = num(md, `${arch}.full_attention_interval`)
  const out = new Set<number>()
  if (interval && interval > 0) {
    for (let il = 0; il < blocks; il++) if ((il + 1) % interval === 0) out.add(il)
    return out
  }
  for (const t of tensors) if (t.layer !== null && t.name.endsWith('.attn_k.weight')) out.add(t.layer)
  return out
}

/** The header, with file-system failures as FitErrors (a bad header is a GgufError already). */
async function readHeader(path: string): Promise<GgufHeader> {
  try {
    return await readGgufHeader(path)
  } catch (err) {
    if (err instanceof FitError) throw err
    throw new FitError(`cannot read ${path}: ${(err as Error).message}`)
  }
}

/** The tensor table with each tensor's bytes; a shape that does not fit its type or the file is a GgufError. */
function tensorTable(header: GgufHeader, file: string, size: number): ModelTensor[] {
  let dataEnd = header.dataOffset
  const tensors = header.tensors.map((t): ModelTensor => {
    if (!isKnownGgmlType(t.typeId))
      throw new FitError(`${file}: tensor ${quoted(t.name)} has an unknown type id ${t.typeId} (a newer llama.cpp quantisation?)`)
    let bytes: number
    try {
      bytes = tensorBytes(t.typeId, t.shape)
    } catch (err) {
      throw new GgufError(file, `tensor ${quoted(t.name)} has a bad shape (${(err as Error).message})`)
    }
    dataEnd = Math.max(dataEnd, header.dataOffset + t.offset + bytes)
    return { name: t.name, layer: layerOf(t.name), expert: EXPERT_TENSOR.test(t.name), typeId: t.typeId, shape: t.shape, bytes }
  })
  if (dataEnd > size) {
    throw new GgufError(
      file,
      `it is truncated (its tensors need ${dataEnd.toLocaleString('en-US')} bytes but the file has ${size.toLocaleString('en-US')})`,
    )
  }
  return tensors
}

/**
 * Reads a local GGUF's metadata and tensor table into the shape the estimator
 * needs. A missing file or an unknown architecture gives a FitError; a file
 * that is not a well-formed GGUF, or whose hyperparameters are out of any
 * model's range (MODEL_LIMITS), a GgufError, before any loop over them.
 */
export async function readGgufModel(path: string): Promise<GgufModel> {
  const file = basename(path)
  let size: number
  try {
    const st = await stat(path)
    if (!st.isFile()) throw new FitError(`${path} is not a file`)
    size = st.size
  } catch (err) {
    if (err instanceof FitError) throw err
    throw new FitError(`The model file ${basename(path)} does not exist: choose the file again, or check the path.`)
  }
  if (size < 24) throw new GgufError(file, `it is too small to be a GGUF file (${size} bytes)`)
  const header = await readHeader(path)
  const md: Metadata = header.metadata
  const arch = md['general.architecture']
  if (typeof arch !== 'string' || arch === '') throw new GgufError(file, 'it names no general.architecture')
  if (!TRANSFORMERS.has(arch) && !HYBRID_GDN.has(arch)) {
    throw new FitError(
      `${file}: unknown architecture ${quoted(cutText(arch, MAX_LISTED_NAME))}: the estimator knows ${KNOWN_ARCHITECTURES.join(', ')}`,
    )
  }
  for (const key of Object.keys(MODEL_LIMITS) as LimitedKey[]) {
    const why = outOfRange(md, arch, key)
    if (why) throw new GgufError(file, why)
  }
  const tensors = tensorTable(header, file, size)

  const blocks = required(md, `${arch}.block_count`, file)
  const nextn = num(md, `${arch}.nextn_predict_layers`) ?? 0
  if (nextn >= blocks) throw new GgufError(file, `its ${nextn} next-token layers leave none of its ${blocks} layers for the model`)
  const experts = num(md, `${arch}.expert_count`) ?? 0
  const expertUsed = num(md, `${arch}.expert_used_count`) ?? 0
  if (expertUsed > experts) throw new GgufError(file, `it uses ${expertUsed} experts per token but has ${experts}`)
  const embedding = required(md, `${arch}.embedding_length`, file)
  const headCount0 = perLayer(md, `${arch}.attention.head_count`, 0) ?? 0
  const headK0 = num(md, `${arch}.attention.key_length`) ?? (headCount0 > 0 ? embedding / headCount0 : 0)
  const tokens = md['tokenizer.ggml.tokens']
  const embdTensor = tensors.find((t) => t.name === 'token_embd.weight')
  const vocab = Array.isArray(tokens) ? tokens.length : (embdTensor?.shape[1] ?? 0)

  const hybrid = HYBRID_GDN.has(arch)
  const attention = hybrid ? gdnAttentionLayers(md, arch, blocks - nextn, tensors) : null
  const layers: LayerShape[] = []
  for (let il = 0; il < blocks; il++) {
    const heads = perLayer(md, `${arch}.attention.head_count`, il) ?? headCount0
    const headsKv = perLayer(md, `${arch}.attention.head_count_kv`, il) ?? heads
    const headK = num(md, `${arch}.attention.key_length`) ?? (heads > 0 ? embedding / heads : 0)
    const headV = num(md, `${arch}.attention.value_length`) ?? headK
    const kind: LayerShape['kind'] =
      il >= blocks - nextn ? 'nextn' : attention && !attention.has(il) ? 'recurrent' : headsKv === 0 ? 'recurrent' : 'attention'
    layers.push({
      index: il,
      kind,
      kvEmbdK: kind === 'recurrent' ? 0 : headsKv * headK,
      kvEmbdV: kind === 'recurrent' ? 0 : headsKv * headV,
    })
  }

  // Gated DeltaNet state (llama.cpp's n_embd_r / n_embd_s, f32).
  let recurrentRBytes = 0
  let recurrentSBytes = 0
  let convChannels = 0
  if (hybrid) {
    const dConv = required(md, `${arch}.ssm.conv_kernel`, file)
    const dState = required(md, `${arch}.ssm.state_size`, file)
    const dInner = required(md, `${arch}.ssm.inner_size`, file)
    const groups = required(md, `${arch}.ssm.group_count`, file)
    convChannels = dInner + 2 * groups * dState
    recurrentRBytes = (dConv - 1) * convChannels * 4
    recurrentSBytes = dState * dInner * 4
  }

  return {
    path,
    fileBytes: size,
    architecture: arch,
    blockCount: blocks,
    nextnLayers: nextn,
    embedding,
    headCount: headCount0,
    queryWidth: headCount0 * headK0,
    vocab,
    trainingContext: num(md, `${arch}.context_length`) ?? 0,
    feedForward: perLayer(md, `${arch}.feed_forward_length`, 0) ?? 0,
    expertCount: experts,
    expertUsed,
    expertFeedForward: num(md, `${arch}.expert_feed_forward_length`) ?? 0,
    layers,
    recurrentRBytes,
    recurrentSBytes,
    convChannels,
    tensors,
  }
}

/** Layers with routed-expert tensors. */
export function expertLayers(model: GgufModel): number[] {
  return [...new Set(model.tensors.filter((t) => t.expert && t.layer !== null).map((t) => t.layer as number))].sort((a, b) => a - b)
}
