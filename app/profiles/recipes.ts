import type { FitReport } from '../contract/fit'
import { buildFitReport, DEFAULT_HEADROOM_MIB } from '../fit/fit-report'
import { readGgufModel } from '../fit/gguf-model'
import { parseLlamaArgs } from '../fit/llama-args'
import { withArgs } from './profile-args'
import type { Profile } from './schema'
import { PROFILE_TEMPLATES, profileFromTemplate } from './templates'

/** A model to pull: a Hub repo and the quant tag in its file names. */
export interface RecipeModel {
  readonly repo: string
  readonly quant: string
}

/** Everything a working setup needs from the Hub, and the profile that runs it. */
export interface ModelRecipe {
  readonly id: string
  readonly title: string
  readonly target: RecipeModel
  readonly draft: RecipeModel
  /** The template whose flags the profile takes (model, draft and --n-cpu-moe are filled in). */
  readonly templateId: string
  /** The free VRAM the fit plans for unless told otherwise, and where the figure comes from. */
  readonly freeVramMiB: number
  readonly freeVramSource: string
}

export const RECIPES: readonly ModelRecipe[] = [
  {
    id: 'qwen36-35b-a3b-8gb',
    title: 'Qwen3.6-35B-A3B Q4_K_M + Qwen3.5-0.8B draft for an 8 GB GPU (experts on the CPU)',
    target: { repo: 'unsloth/Qwen3.6-35B-A3B-GGUF', quant: 'Q4_K_M' },
    draft: { repo: 'unsloth/Qwen3.5-0.8B-GGUF', quant: 'Q4_K_M' },
    templateId: 'rtx4060-laptop-qwen36-35b-a3b',
    // An RTX 4060 Laptop with this setup running: 5.4 GB used and 2.5 GB free.
    freeVramMiB: 7900,
    freeVramSource: 'an RTX 4060 Laptop 8 GB (5.4 GB used + 2.5 GB free with this setup running)',
  },
]

export function recipeNamed(id: string): ModelRecipe {
  const r = RECIPES.find((x) => x.id === id)
  if (!r) throw new Error(`No recipe "${id}" (known: ${RECIPES.map((x) => x.id).join(', ')}).`)
  return r
}

export interface RecipeProfileInput {
  readonly recipe: ModelRecipe
  readonly binary: string
  readonly targetPath: string
  readonly draftPath: string
  /** Free VRAM to plan for (default: the recipe's figure). */
  readonly freeVramMiB?: number
  readonly headroomMiB?: number
  readonly takenIds?: Iterable<string>
}

/** Replaces one flag's value in an argument list (or appends the flag). */
function setFlag(args: string[], flag: string, value: string): string[] {
  const i = args.indexOf(flag)
  if (i < 0) return [...args, flag, value]
  const out = [...args]
  out[i + 1] = value
  return out
}

/**
 * The recipe's profile for the pulled files: the template's flags with -m and
 * -md set to them and --n-cpu-moe fitted (the smallest that leaves the
 * headroom free on the given VRAM, from the GGUFs themselves).
 */
export async function recipeProfile(input: RecipeProfileInput): Promise<{ profile: Profile; fit: FitReport }> {
  const command = PROFILE_TEMPLATES.find((t) => t.id === input.recipe.templateId)?.command ?? ''
  const base = command.replace(/\\\n/g, ' ').split(/\s+/).filter(Boolean)
  const target = await readGgufModel(input.targetPath)
  let args = ['-m', input.targetPath, ...setFlag(base, '-md', input.draftPath)]
  // The template's context was measured on its model; a model trained on less gets its training context (one slot).
  const ctx = Number(args[args.indexOf('-c') + 1])
  if (args.includes('-c') && target.trainingContext > 0 && ctx > target.trainingContext)
    args = setFlag(args, '-c', String(target.trainingContext))
  const launch = parseLlamaArgs(args)
  const fit = buildFitReport({
    model: target,
    draft: await readGgufModel(input.draftPath),
    settings: launch.settings,
    freeVramMiB: input.freeVramMiB ?? input.recipe.freeVramMiB,
    headroomMiB: input.headroomMiB ?? DEFAULT_HEADROOM_MIB,
    vramSource: 'flag',
  })
  args = setFlag(args, '--n-cpu-moe', String(fit.nCpuMoe))
  const template = profileFromTemplate(input.recipe.templateId, input.takenIds ? { takenIds: input.takenIds } : {})
  const profile = withArgs(
    {
      ...template,
      binary: input.binary,
      notes:
        `${template.notes} Pulled by the recipe ${input.recipe.id}; --n-cpu-moe ${fit.nCpuMoe} fitted for ` +
        `${input.freeVramMiB === undefined ? input.recipe.freeVramSource : `${input.freeVramMiB} MiB free`}.`,
    },
    args,
  )
  return { profile, fit }
}
