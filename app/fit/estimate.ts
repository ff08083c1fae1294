import { computeBufferBytes, gpuComputeBytes, hostComputeBytes } from './compute-buffer'
import { cacheRowBytes, cudaPaddingBytes, type CacheType } from './ggml-types'
import type { GgufModel } from './gguf-model'
import { ALL_LAYERS, type LaunchSettings } from './launch-settings'
import { firstGpuLayer, layerDevice, placementOverrides, tensorDevice, type Device } from './placement'

/** Bytes on one device. */
export interface DeviceBytes {
  weights: number
  kv: number
  recurrent: number
  compute: number
}

export interface ModelEstimate {
  readonly gpu: DeviceBytes
  readonly host: DeviceBytes
}

/** How llama-server sizes the context of one model. */
export interface ContextShape {
  /** n_ctx after rounding up to 256. */
  readonly ctx: number
  readonly sequences: number
  readonly unified: boolean
  readonly ubatch: number
}

const CTX_PAD = 256

function padUp(n: number, to: number): number {
  return Math.ceil(n / to) * to
}

/**
 * The context llama-server (mainline v0.5.0) builds: -np unset means 4 slots
 * with a unified KV cache; -c unset means the training context per slot;
 * n_ctx is rounded up to 256; the micro-batch is min(-ub, -b).
 */
export function contextShape(model: GgufModel, s: LaunchSettings): ContextShape {
  const sequences = s.parallel ?? 4
  const unified = s.kvUnified ?? s.parallel === null
  const wanted = s.ctx !== null && s.ctx > 0 ? s.ctx : Math.max(1, model.trainingContext) * sequences
  return { ctx: padUp(wanted, CTX_PAD), sequences, unified, ubatch: Math.min(s.ubatch, s.batch) }
}

export function emptyDevice(): DeviceBytes {
  return { weights: 0, kv: 0, recurrent: 0, compute: 0 }
}

export function deviceTotal(d: DeviceBytes): number {
  return d.weights + d.kv + d.recurrent + d.compute
}

interface ModelOptions {
  readonly nGpuLayers: number
  readonly nCpuMoe: number
  readonly cpuMoe: boolean
  readonly overrideTensors: readonly string[]
  readonly cacheTypeK: CacheType
  readonly cacheTypeV: CacheType
  readonly kvOffload: boolean
  readonly opOffload: boolean
  readonly flashAttn: boolean
}

const TENSOR_ALIGN = 32

/** The largest weight of the layers left on the CPU by -ngl, and how many layers that is. */
function largestHostTensor(model: GgufModel, nGpuLayers: number): { largest: number; layers: number } {
  const first = firstGpuLayer(model, nGpuLayers)
  let largest = 0
  for (const t of model.tensors) if (t.layer !== null && t.layer < first) largest = Math.max(largest, t.bytes)
  return { largest, layers: Math.min(first, model.blockCount) }
}

/** The estimate of one model in one context. */
export function estimateModel(model: GgufModel, ctx: ContextShape, o: ModelOptions): ModelEstimate {
  const dev: Record<Device, DeviceBytes> = { gpu: emptyDevice(), host: emptyDevice() }
  const overrides = placementOverrides(o)
  const anyGpu = o.nGpuLayers > 0
  let largestCpuExpert = 0
  const cpuExpertLayers = new Set<number>()
  for (const t of model.tensors) {
    const d = anyGpu ? tensorDevice(model, t, o.nGpuLayers, overrides) : 'host'
    dev[d].weights += padUp(t.bytes + (d === 'gpu' ? cudaPaddingBytes(t.typeId, t.shape) : 0), TENSOR_ALIGN)
    if (t.expert && d === 'host' && t.layer !== null && anyGpu && layerDevice(model, t.layer, o.nGpuLayers) === 'gpu') {
      cpuExpertLayers.add(t.layer)
      largestCpuExpert = Math.max(largestCpuExpert, t.bytes)
    }
  }
  // Tied embeddings: llama.cpp loads token_embd a second time as the output on the output device.
  const embd = model.tensors.find((t) => t.name === 'token_embd.weight')
  if (embd && !model.tensors.some((t) => t.name === 'output.weight') && anyGpu && o.nGpuLayers > model.blockCount)
    dev.gpu.weights += padUp(embd.bytes, TENSOR_ALIGN)

  const streams = ctx.unified ? 1 : ctx.sequences
  const cellsPerStream = Math.floor(ctx.ctx / streams)
  const cells = cellsPerStream * streams
  for (const layer of model.layers) {
    const d: Device = anyGpu && layerDevice(model, layer.index, o.nGpuLayers) === 'gpu' ? 'gpu' : 'host'
    if (layer.kind === 'attention') {
      const kvDev: Device = o.kvOffload ? d : 'host'
      dev[kvDev].kv += cells * (cacheRowBytes(o.cacheTypeK, layer.kvEmbdK) + cacheRowBytes(o.cacheTypeV, layer.kvEmbdV))
    } else if (layer.kind === 'recurrent') {
      dev[d].recurrent += ctx.sequences * (model.recurrentRBytes + model.recurrentSBytes)
    }
  }

  const shape = { cellsPerStream, ubatch: ctx.ubatch, sequences: ctx.sequences, flashAttn: o.flashAttn }
  if (!anyGpu) {
    dev.host.compute = computeBufferBytes(model, shape)
  } else {
    const partial = firstGpuLayer(model, o.nGpuLayers) > 0
    // Op offload: for batches of 32+ tokens the GPU computes what sits on the CPU, staging those weights in its compute buffer.
    const staged = !o.opOffload
      ? { largest: 0, layers: 0 }
      : partial
        ? largestHostTensor(model, o.nGpuLayers)
        : { largest: largestCpuExpert, layers: cpuExpertLayers.size }
    const quantizedKv = o.cacheTypeK !== 'f16' || o.cacheTypeV !== 'f16'
    dev.gpu.compute = gpuComputeBytes(model, {
      ...shape,
      cells,
      quantizedKv,
      largestStagedTensor: staged.largest,
      stagedLayers: staged.layers,
    })
    dev.host.compute = hostComputeBytes(model, shape, { partial, cpuExperts: !o.opOffload && cpuExpertLayers.size > 0 })
  }
  return { gpu: dev.gpu, host: dev.host }
}

export interface LaunchEstimate {
  readonly context: ContextShape
  readonly model: ModelEstimate
  readonly draftContext: ContextShape | null
  readonly draft: ModelEstimate | null
}

/** The estimate of a launch: the model and, with -md, the draft (its own -ngld, -cd and -ctkd/-ctvd, the target's slots). */
export function estimateLaunch(model: GgufModel, draft: GgufModel | null, s: LaunchSettings): LaunchEstimate {
  const context = contextShape(model, s)
  const flashAttn = s.flashAttn !== 'off'
  const main = estimateModel(model, context, { ...s, flashAttn })
  if (!draft || !s.draft) return { context, model: main, draftContext: null, draft: null }
  const draftContext: ContextShape = {
    ...context,
    ctx: s.draft.ctx !== null && s.draft.ctx > 0 ? padUp(s.draft.ctx, CTX_PAD) : context.ctx,
  }
  const est = estimateModel(draft, draftContext, {
    nGpuLayers: s.nGpuLayers <= 0 ? 0 : s.draft.nGpuLayers,
    nCpuMoe: 0,
    cpuMoe: false,
    overrideTensors: [],
    cacheTypeK: s.draft.cacheTypeK,
    cacheTypeV: s.draft.cacheTypeV,
    kvOffload: s.kvOffload,
    opOffload: s.opOffload,
    flashAttn,
  })
  return { context, model: main, draftContext, draft: est }
}

export { ALL_LAYERS }
