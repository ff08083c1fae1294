import { estimateLaunch } from '../fit/estimate'
import { gpuBytes, searchNCpuMoe } from '../fit/fit-report'
import { expertLayers, type GgufModel } from '../fit/gguf-model'
import { parseLlamaArgs } from '../fit/llama-args'
import type { LaunchSettings } from '../fit/launch-settings'
import { F } from './flag-names'
import type { VramSuggestion } from './live-rules'

const MIB = 1024 * 1024

/**
 * The smallest --n-cpu-moe above the current one whose estimated GPU total is
 * lower by what the headroom lacks (the fit's search with a budget of "now
 * minus the deficit"). Null when the model has no experts, all are on the CPU
 * already, the arguments cannot be read, or even all experts on the CPU would not do.
 */
export function suggestNCpuMoe(
  model: GgufModel,
  draft: GgufModel | null,
  args: readonly string[],
  freeMiB: number,
  headroomMiB: number,
): VramSuggestion | null {
  if (expertLayers(model).length === 0) return null
  let settings: LaunchSettings
  try {
    settings = parseLlamaArgs(args).settings
  } catch {
    return null // a fork-only cache type the estimator does not know
  }
  if (settings.cpuMoe || settings.overrideTensors.length > 0) return null
  const current = gpuBytes(estimateLaunch(model, draft, settings))
  const budget = current - (headroomMiB - freeMiB) * MIB
  const { chosen } = searchNCpuMoe(model, draft, settings, budget)
  if (chosen === null || chosen <= settings.nCpuMoe) return null
  const after = gpuBytes(estimateLaunch(model, draft, { ...settings, nCpuMoe: chosen }))
  return {
    change: `--n-cpu-moe ${chosen}`,
    savedMiB: (current - after) / MIB,
    nCpuMoe: { from: settings.nCpuMoe, to: chosen },
    fix: {
      label: `Move more experts to the CPU (--n-cpu-moe ${chosen})`,
      removeArgs: [...F.nCpuMoe],
      addArgs: ['--n-cpu-moe', String(chosen)],
    },
  }
}

/** Contexts a shorter -c is picked from, longest first (each half the one before; llama-server's small default last). */
function shorterContexts(ctx: number): number[] {
  const out: number[] = []
  for (let c = Math.floor(ctx / 2); c >= 2048; c = Math.floor(c / 2)) out.push(c)
  return out
}

/**
 * The longest shorter -c whose estimated GPU total gives back what the headroom lacks: the fix when experts cannot
 * move (a dense model, or all of them on the CPU already). Null when -c is not set, or even 2048 would not do.
 */
export function suggestShorterContext(
  model: GgufModel,
  draft: GgufModel | null,
  args: readonly string[],
  freeMiB: number,
  headroomMiB: number,
): VramSuggestion | null {
  let settings: LaunchSettings
  try {
    settings = parseLlamaArgs(args).settings
  } catch {
    return null
  }
  if (settings.ctx === null) return null
  const current = gpuBytes(estimateLaunch(model, draft, settings))
  const deficit = (headroomMiB - freeMiB) * MIB
  for (const ctx of shorterContexts(settings.ctx)) {
    const after = gpuBytes(estimateLaunch(model, draft, { ...settings, ctx }))
    if (current - after < deficit) continue
    return {
      change: `-c ${ctx}`,
      savedMiB: (current - after) / MIB,
      fix: { label: `Use a shorter context (-c ${ctx})`, removeArgs: [...F.ctx], addArgs: ['-c', String(ctx)] },
    }
  }
  return null
}

/** The low-VRAM fix: more experts on the CPU where the model has them to move, else a shorter context. */
export function suggestVramFix(
  model: GgufModel,
  draft: GgufModel | null,
  args: readonly string[],
  freeMiB: number,
  headroomMiB: number,
): VramSuggestion | null {
  return suggestNCpuMoe(model, draft, args, freeMiB, headroomMiB) ?? suggestShorterContext(model, draft, args, freeMiB, headroomMiB)
}
