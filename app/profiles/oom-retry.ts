import { readGgufModel } from '../fit/gguf-model'
import { parseLlamaArgs } from '../fit/llama-args'
import type { PlacementSettings } from '../contract/snapshot'
import { describeChanges, saferPlacement, type PlacementBudget, type PlacementChange } from '../fit/safer-placement'
import { noPlacementFits, noPlacementProblem } from '../fit/no-placement-fits'
import type { OomNoFit, PlacementRetry } from './switch-profile'

/** The profile fields that keep the changed flags. */
function placementSettings(changes: readonly PlacementChange[]): PlacementSettings {
  const out: { nCpuMoe?: number; gpuLayers?: string; ctxSize?: number } = {}
  for (const c of changes) {
    if (c.name === 'n-cpu-moe') out.nCpuMoe = Number(c.to)
    else if (c.name === 'gpu-layers') out.gpuLayers = c.to
    else out.ctxSize = Number(c.to)
  }
  return out
}

const mib = (n: number): string => `${Math.round(n).toLocaleString('en-US')} MiB`

/**
 * The retry after a load ran out of GPU memory: the placement the fit says
 * fits the GPU's free memory now, with the sentence that tells the user what
 * changed; when nothing safer fits, why, with the numbers (no retry). Null when
 * the launch has no local model to read or the GPU's free memory is unknown.
 */
export async function planOomRetry(args: readonly string[], budget: PlacementBudget | null): Promise<PlacementRetry | OomNoFit | null> {
  if (budget === null) return null
  const launch = parseLlamaArgs(args)
  if (!launch.model) return null
  try {
    const model = await readGgufModel(launch.model)
    const draft = launch.settings.draft ? await readGgufModel(launch.settings.draft.path) : null
    const safer = saferPlacement(args, model, draft, budget)
    // The telemetry does not name the programs that hold the GPU's memory: the sentence says "other GPU programs".
    if (!safer)
      return launch.settings.nGpuLayers > 0 ? { noFit: noPlacementProblem(noPlacementFits(args, model, draft, budget), null) } : null
    const sentence =
      `The GPU ran out of memory loading the model (${mib(budget.freeVramMiB)} free, about ${mib(safer.beforeMiB)} needed), ` +
      `so it was started with ${describeChanges(safer.changes)}, about ${mib(safer.afterMiB)}.`
    return { args: safer.args, sentence, settings: placementSettings(safer.changes) }
  } catch {
    // An unreadable model fails the retry's start the same way: no retry, the first failure stands.
    return null
  }
}
