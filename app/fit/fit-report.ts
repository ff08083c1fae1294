import { cutText, MAX_LISTED_NAME } from '../lib/cut-text'
import type { FitCandidate, FitDeviceMemory, FitModelMemory, FitModelSummary, FitPlacement, FitReport } from '../contract/fit'
import { deviceTotal, estimateLaunch, type DeviceBytes, type LaunchEstimate } from './estimate'
import { expertLayers, type GgufModel } from './gguf-model'
import type { LaunchSettings } from './launch-settings'
import { CUDA_RUNTIME_MIB } from './runtime-overhead'

export const DEFAULT_HEADROOM_MIB = 1536

export interface FitInput {
  readonly model: GgufModel
  readonly draft: GgufModel | null
  readonly settings: LaunchSettings
  /** Free VRAM now (not counting our own server), or null to estimate the given placement only. */
  readonly freeVramMiB: number | null
  readonly headroomMiB: number
  readonly vramSource: FitReport['vramSource']
  /** GPU memory beyond the buffers (see runtime-overhead.ts); CUDA_RUNTIME_MIB unless measured or set. */
  readonly runtimeMiB?: number
  /** Where runtimeMiB came from (default: 'flag' when given, else 'default'). */
  readonly runtimeSource?: 'measured' | 'flag'
}

const MIB = 1024 * 1024
const r2 = (n: number): number => Math.round(n * 100) / 100

function toMiB(d: DeviceBytes): FitDeviceMemory {
  return {
    weightsMiB: r2(d.weights / MIB),
    kvMiB: r2(d.kv / MIB),
    recurrentMiB: r2(d.recurrent / MIB),
    computeMiB: r2(d.compute / MIB),
    totalMiB: r2(deviceTotal(d) / MIB),
  }
}

function sum(a: DeviceBytes, b: DeviceBytes | undefined): DeviceBytes {
  if (!b) return a
  return { weights: a.weights + b.weights, kv: a.kv + b.kv, recurrent: a.recurrent + b.recurrent, compute: a.compute + b.compute }
}

/** GPU bytes of a launch, model plus draft. */
export function gpuBytes(e: LaunchEstimate): number {
  return deviceTotal(e.model.gpu) + (e.draft ? deviceTotal(e.draft.gpu) : 0)
}

function summary(m: GgufModel): FitModelSummary {
  return {
    path: m.path,
    architecture: cutText(m.architecture, MAX_LISTED_NAME),
    layers: m.blockCount,
    attentionLayers: m.layers.filter((l) => l.kind === 'attention').length,
    recurrentLayers: m.layers.filter((l) => l.kind === 'recurrent').length,
    expertLayers: expertLayers(m).length,
    trainingContext: m.trainingContext,
    fileMiB: r2(m.fileBytes / MIB),
  }
}

/**
 * The smallest --n-cpu-moe (0 … the number of layers with experts) whose GPU
 * estimate, model plus draft, fits the budget. Returns every step tried; the
 * chosen one is the first that fits, or null when none does.
 */
export function searchNCpuMoe(
  model: GgufModel,
  draft: GgufModel | null,
  settings: LaunchSettings,
  budgetBytes: number,
  runtimeBytes = 0,
): { chosen: number | null; candidates: FitCandidate[] } {
  const max = Math.max(0, ...expertLayers(model).map((l) => l + 1))
  const candidates: FitCandidate[] = []
  for (let n = 0; n <= max; n++) {
    const bytes = gpuBytes(estimateLaunch(model, draft, { ...settings, nCpuMoe: n })) + runtimeBytes
    const fits = bytes <= budgetBytes
    candidates.push({ nCpuMoe: n, gpuTotalMiB: r2(bytes / MIB), fits })
    if (fits) return { chosen: n, candidates }
  }
  return { chosen: null, candidates }
}

/** Estimates a launch and, with a VRAM budget, picks --n-cpu-moe: the whole `fit` answer. */
export function buildFitReport(input: FitInput): FitReport {
  const { model, draft, settings } = input
  const notes: string[] = []
  const budgetMiB = input.freeVramMiB === null ? null : r2(input.freeVramMiB - input.headroomMiB)
  let chosen = settings
  let candidates: FitCandidate[] = []
  const experts = expertLayers(model).length
  const runtimeMiB = settings.nGpuLayers > 0 ? (input.runtimeMiB ?? CUDA_RUNTIME_MIB) : 0
  const runtimeSource: FitReport['gpuRuntimeSource'] =
    settings.nGpuLayers <= 0 ? 'none' : input.runtimeMiB === undefined ? 'default' : (input.runtimeSource ?? 'flag')
  if (budgetMiB !== null) {
    if (experts === 0)
      notes.push(`${model.architecture} has no expert tensors: --n-cpu-moe changes nothing, only the given placement is estimated`)
    else if (settings.cpuMoe) notes.push('--cpu-moe keeps every expert on the CPU: no --n-cpu-moe search')
    else {
      const found = searchNCpuMoe(model, draft, settings, budgetMiB * MIB, runtimeMiB * MIB)
      candidates = found.candidates
      const last = candidates[candidates.length - 1]
      if (found.chosen !== null) chosen = { ...settings, nCpuMoe: found.chosen }
      else if (last) {
        chosen = { ...settings, nCpuMoe: last.nCpuMoe }
        notes.push(
          budgetMiB > 0
            ? `nothing fits ${budgetMiB} MiB even with every expert on the CPU (${last.gpuTotalMiB} MiB): lower the context, quantize ` +
                `the KV cache, drop the draft or -ngl`
            : // No budget at all (free VRAM under the headroom): a negative figure would read as a fault of the profile.
              `nothing fits: ${input.freeVramMiB} MiB of VRAM is free, less than the ${input.headroomMiB} MiB headroom, and even with ` +
                `every expert on the CPU the GPU needs ${last.gpuTotalMiB} MiB: close other GPU apps or lower the headroom`,
        )
      }
    }
  }
  const est = estimateLaunch(model, draft, chosen)
  const gpuTotal = gpuBytes(est) / MIB + runtimeMiB
  const draftMem: FitModelMemory | null = est.draft ? { gpu: toMiB(est.draft.gpu), host: toMiB(est.draft.host) } : null
  if (settings.ctx === null) notes.push(`-c unset: llama-server uses the training context per slot (${est.context.ctx} tokens)`)
  if (settings.parallel === null) notes.push('-np unset: mainline uses 4 slots and a unified KV cache')
  if (est.context.ctx / (est.context.unified ? 1 : est.context.sequences) > model.trainingContext && model.trainingContext > 0)
    notes.push(
      `the context per slot exceeds the training context (${model.trainingContext}): llama-server caps the slots but still allocates ` +
        `the KV cache`,
    )
  if (est.model.gpu.compute > 0 && chosen.nCpuMoe > 0 && chosen.opOffload)
    notes.push('compute includes CPU expert weights staged on the GPU for large batches (op offload; --no-op-offload removes it)')
  if (runtimeMiB > 0) {
    const origin =
      runtimeSource === 'measured'
        ? 'learned from launches on this GPU'
        : runtimeSource === 'flag'
          ? 'as given'
          : 'measured on an H200; replaced by this GPU’s own figure after a launch'
    notes.push(
      `the GPU total adds ${runtimeMiB} MiB for the CUDA runtime (context, cuBLAS, pools) beyond llama-server's buffers: ${origin}`,
    )
  }
  const placement: FitPlacement = {
    nGpuLayers: chosen.nGpuLayers,
    nCpuMoe: chosen.nCpuMoe,
    cpuMoe: chosen.cpuMoe,
    overrideTensors: chosen.overrideTensors,
    ctx: est.context.ctx,
    parallel: est.context.sequences,
    kvUnified: est.context.unified,
    cacheTypeK: chosen.cacheTypeK,
    cacheTypeV: chosen.cacheTypeV,
    ubatch: est.context.ubatch,
    flashAttn: chosen.flashAttn !== 'off',
    draftGpuLayers: chosen.draft ? chosen.draft.nGpuLayers : null,
  }
  return {
    nCpuMoe: chosen.nCpuMoe,
    fits: budgetMiB === null ? null : gpuTotal <= budgetMiB,
    budgetMiB,
    freeVramMiB: input.freeVramMiB,
    headroomMiB: input.headroomMiB,
    vramSource: input.vramSource,
    gpu: toMiB(est.model.gpu),
    host: toMiB(est.model.host),
    draft: draftMem,
    total: { gpu: toMiB(sum(est.model.gpu, est.draft?.gpu)), host: toMiB(sum(est.model.host, est.draft?.host)) },
    gpuRuntimeMiB: runtimeMiB,
    gpuRuntimeSource: runtimeSource,
    gpuProcessMiB: r2(gpuTotal),
    placement,
    model: summary(model),
    draftModel: draft ? summary(draft) : null,
    candidates,
    notes,
  }
}
