import type { GgufModel } from './gguf-model'

/** What the compute-buffer model needs about a context. */
export interface ComputeShape {
  /** KV cells per stream (n_ctx, or n_ctx / slots without a unified cache). */
  readonly cellsPerStream: number
  readonly ubatch: number
  readonly sequences: number
  readonly flashAttn: boolean
}

const F32 = 4

function hasKind(model: GgufModel, kind: 'attention' | 'recurrent'): boolean {
  return model.layers.some((l) => l.kind === kind)
}

/**
 * The widest per-token activation row of the graph (f32 values): the GDN convolution channels, the dense FFN, or the routed experts in use.
 */
function widestRow(model: GgufModel): number {
  return Math.max(
    hasKind(model, 'recurrent') ? 3 * model.convChannels : 0,
    3 * model.feedForward + 3 * model.embedding,
    3 * model.expertUsed * model.expertFeedForward + 3 * model.embedding,
  )
}

/** Recurrent state read (and, on the CPU, written) for every sequence, plus the logits of one output per sequence. */
function stateAndLogits(model: GgufModel, sequences: number, copies: number): number {
  const state = hasKind(model, 'recurrent') ? copies * sequences * model.recurrentSBytes : 0
  return state + sequences * model.vocab * F32
}

/**
 * The compute buffer of a CPU build (everything on the host), as a calibrated
 * sum (fitted against mainline v0.5.0's `sched_reserve` figures on the tiny
 * fixture models, CPU build; see calibration.test.ts):
 * - attention: the KQ mask, f16, cells × ubatch (flash attention), or the f32
 *   KQ scores cells × ubatch × heads without it;
 * - activations: ubatch × 3 of the widest per-token row, f32;
 * - recurrent state and logits.
 */
export function computeBufferBytes(model: GgufModel, shape: ComputeShape): number {
  const attention = !hasKind(model, 'attention')
    ? 0
    : shape.flashAttn
      ? shape.cellsPerStream * shape.ubatch * 2
      : shape.cellsPerStream * shape.ubatch * Math.max(1, model.headCount) * F32
  return attention + shape.ubatch * widestRow(model) * F32 + stateAndLogits(model, shape.sequences, 2)
}

/** The KQ mask llama.cpp builds on the host and copies to the GPU: f16 with flash attention, f32 without. */
function maskBytes(model: GgufModel, shape: ComputeShape): number {
  return hasKind(model, 'attention') ? shape.cellsPerStream * shape.ubatch * (shape.flashAttn ? 2 : F32) : 0
}

export interface GpuComputeInput extends ComputeShape {
  /** KV cells over all streams. */
  readonly cells: number
  /** K or V cache quantized: flash attention on CUDA converts one layer's K and V to f16 first. */
  readonly quantizedKv: boolean
  /** Bytes of the largest weight the GPU stages from the CPU (0 when none, or with --no-op-offload). */
  readonly largestStagedTensor: number
  /** How many layers have weights on the CPU. */
  readonly stagedLayers: number
}

/**
 * The CUDA compute buffer of a graph that runs on the GPU. Fitted against
 * mainline v0.5.0 built with CUDA on an H200 (driver 580), 31 launches of the
 * tiny fixtures and a synthetic Qwen3.6-35B-A3B (test/fixtures/llama-server-cuda-h200):
 * the KQ mask plus the largest of three phases, since the allocator reuses
 * memory between them:
 * - attention: the f16 copy of one layer's quantized K and V (or the f32 KQ
 *   scores without flash attention) and ~2 × (3 × query + 2 × KV) floats per token;
 * - the rest of the layer: the CPU model's widest row, ~6 floats per routed
 *   expert unit in use per token, the recurrent state and the logits;
 * - op offload: two CPU-resident weight tensors staged at once (one when a
 *   single layer is on the CPU), plus ~5 floats per routed expert unit per
 *   token. Exact at the seed's placement (c 65536, q4_0, ub 256–2048, any
 *   --n-cpu-moe ≥ 2); with a 16K context, -ot of the down projections only or
 *   whole layers on the CPU llama.cpp stages less: over by ≤ 175 MiB there.
 */
export function gpuComputeBytes(model: GgufModel, input: GpuComputeInput): number {
  const ub = input.ubatch
  const routed = model.expertUsed * model.expertFeedForward
  let attention = 0
  if (hasKind(model, 'attention')) {
    const kvWidth = Math.max(0, ...model.layers.map((l) => l.kvEmbdK + l.kvEmbdV))
    const temp = !input.flashAttn
      ? input.cellsPerStream * ub * Math.max(1, model.headCount) * F32
      : input.quantizedKv
        ? input.cells * kvWidth * 2
        : 0
    attention = temp + ub * F32 * 2 * (3 * model.queryWidth + 2 * kvWidth)
  }
  const rest = ub * F32 * (widestRow(model) + 6 * routed) + stateAndLogits(model, input.sequences, 1)
  const staging =
    input.largestStagedTensor > 0 && ub >= 32 ? Math.min(2, input.stagedLayers) * input.largestStagedTensor + ub * F32 * 5 * routed : 0
  return maskBytes(model, input) + Math.max(attention, rest, staging)
}

/** What the host computes itself when the GPU runs the graph. */
export interface HostWork {
  /** Layers left on the CPU by -ngl. */
  readonly partial: boolean
  /** Experts on the CPU computed there (--no-op-offload). */
  readonly cpuExperts: boolean
}

/**
 * The host-side compute buffer when the GPU runs the graph: the KQ mask and
 * the input embeddings (exact on CUDA); plus, fitted, a quarter of the widest
 * row per token for layers left on the CPU by -ngl, and ~7 floats per routed
 * expert unit per token for experts the CPU computes itself (--no-op-offload).
 */
export function hostComputeBytes(model: GgufModel, shape: ComputeShape, work: HostWork): number {
  const cpuLayers = work.partial ? (shape.ubatch * widestRow(model) * F32) / 4 : 0
  const cpuExperts = work.cpuExperts ? shape.ubatch * F32 * 7 * model.expertUsed * model.expertFeedForward : 0
  return maskBytes(model, shape) + 2 * shape.ubatch * model.embedding * F32 + Math.max(cpuLayers, cpuExperts)
}
