import type { GgufModel } from './gguf-model'

/** What the compute-buffer model needs about a context. */
export interface ComputeShape {
  /** KV cells per stream (n_ctx, or n_ctx / slots without a unified cache). */
  readonly cellsPerStream: number
  readonly ubatch: number
  readonly sequences: number
  readonly flashAttn: boolean
}

/**
 * The compute buffer llama.cpp reserves for the worst-case micro-batch, as a
 * calibrated sum (fitted against mainline v0.5.0's `sched_reserve` figures on
 * the tiny fixture models, CPU build; see calibration.test.ts):
 * - attention: the KQ mask, f16, cells × ubatch (flash attention), or the f32
 *   KQ scores cells × ubatch × heads without it;
 * - activations: ubatch × 3 of the widest per-token row, f32 (the GDN
 *   convolution channels, the dense FFN, or the routed experts in use);
 * - recurrent layers: the state read and written for every sequence;
 * - the logits of one output per sequence.
 */
export function computeBufferBytes(model: GgufModel, shape: ComputeShape): number {
  const hasAttention = model.layers.some((l) => l.kind === 'attention')
  const hasRecurrent = model.layers.some((l) => l.kind === 'recurrent')
  const attention = !hasAttention ? 0 : shape.flashAttn ? shape.cellsPerStream * shape.ubatch * 2 : shape.cellsPerStream * shape.ubatch * Math.max(1, model.headCount) * 4
  const widest = Math.max(
    hasRecurrent ? 3 * model.convChannels : 0,
    3 * model.feedForward + 3 * model.embedding,
    3 * model.expertUsed * model.expertFeedForward + 3 * model.embedding,
  )
  const activations = shape.ubatch * widest * 4
  const state = hasRecurrent ? 2 * shape.sequences * model.recurrentSBytes : 0
  const logits = shape.sequences * model.vocab * 4
  return attention + activations + state + logits
}

/** The host-side compute buffer when the GPU runs the graph: the input embeddings, plus the expert activations of experts kept on the CPU. */
export function hostComputeBytes(model: GgufModel, ubatch: number, cpuExperts: boolean): number {
  const inputs = 2 * ubatch * model.embedding * 4
  const experts = cpuExperts ? ubatch * (3 * model.expertUsed * model.expertFeedForward + 2 * model.embedding) * 4 : 0
  return inputs + experts
}
