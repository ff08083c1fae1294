import { estimateLaunch } from './estimate'
import { gpuBytes } from './fit-report'
import { expertLayers, type GgufModel } from './gguf-model'
import { ALL_LAYERS, type LaunchSettings } from './launch-settings'
import { parseLlamaArgs } from './llama-args'
import { CUDA_RUNTIME_MIB } from './runtime-overhead'
import type { PlacementBudget } from './safer-placement'

const MIB = 1024 * 1024

/** What the GPU would need at the least placement the out-of-memory retry tries, against what is free. */
export interface NoPlacementFits {
  /** The model has experts (then every one of them was counted on the CPU). */
  readonly moe: boolean
  /** The launch's -ngl with every expert on the CPU, MiB (buffers plus runtime). */
  readonly neededMiB: number
  /** Also only one layer on the GPU: the least any -ngl above 0 needs, MiB. */
  readonly oneLayerMiB: number
  readonly gpuLayers: number
  readonly freeVramMiB: number
  readonly headroomMiB: number
}

function gpuMiB(model: GgufModel, draft: GgufModel | null, settings: LaunchSettings, runtimeMiB: number): number {
  return Math.round(gpuBytes(estimateLaunch(model, draft, settings)) / MIB + runtimeMiB)
}

/**
 * Why no safer placement fits (saferPlacement found none): the estimate with every expert
 * on the CPU at the launch's -ngl, and with one layer on the GPU, against the free memory.
 */
export function noPlacementFits(
  args: readonly string[],
  model: GgufModel,
  draft: GgufModel | null,
  budget: PlacementBudget,
): NoPlacementFits {
  const current = parseLlamaArgs(args).settings
  const expertMax = Math.max(0, ...expertLayers(model).map((l) => l + 1))
  const moe = expertMax > 0
  const runtimeMiB = budget.runtimeMiB ?? CUDA_RUNTIME_MIB
  const gpuLayers = Math.min(current.nGpuLayers, ALL_LAYERS, model.blockCount + 1)
  const allExperts: LaunchSettings = moe ? { ...current, nCpuMoe: expertMax, nGpuLayers: gpuLayers } : { ...current, nGpuLayers: gpuLayers }
  return {
    moe,
    neededMiB: gpuMiB(model, draft, allExperts, runtimeMiB),
    oneLayerMiB: gpuMiB(model, draft, { ...allExperts, nGpuLayers: 1 }, runtimeMiB),
    gpuLayers,
    freeVramMiB: Math.round(budget.freeVramMiB),
    headroomMiB: Math.round(budget.headroomMiB),
  }
}

const mib = (n: number): string => `${Math.round(n).toLocaleString('en-US')} MiB`

/**
 * The out-of-memory failure when nothing smaller fits: the numbers, then what is left to do
 * (other GPU programs, named when the telemetry names the biggest, or the CPU alone);
 * the long reason for Details.
 */
export function noPlacementProblem(fit: NoPlacementFits, biggestGpuProgram: string | null): { sentence: string; details: string } {
  const held = biggestGpuProgram ?? 'other GPU programs'
  const placement = fit.moe ? 'Even with every expert on the CPU' : 'Even with one layer on the GPU'
  const needed = fit.moe ? fit.neededMiB : fit.oneLayerMiB
  const sentence = `${placement} it needs about ${mib(needed)} and ${mib(fit.freeVramMiB)} are free: close ${held} or run it on the CPU with -ngl 0.`
  const details =
    `The GPU ran out of memory loading the model, and no placement fits the free memory: ` +
    (fit.moe ? `with every expert on the CPU (--n-cpu-moe) and -ngl ${fit.gpuLayers} it needs about ${mib(fit.neededMiB)}, ` : '') +
    `with one layer on the GPU about ${mib(fit.oneLayerMiB)} (buffers and the CUDA runtime, estimated from the model file); ` +
    `${mib(fit.freeVramMiB)} are free and ${mib(fit.headroomMiB)} are kept as headroom. ` +
    `A smaller context at the profile's placement does not fit either.`
  return { sentence, details }
}
