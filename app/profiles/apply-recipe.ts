import type { FitReport } from '../contract/fit'
import { pullModel, type PullProgress } from '../models'
import { recipeProfile, type ModelRecipe } from './recipes'
import { acceptFixes } from './resolve-launch'
import type { Profile } from './schema'
import { ProfileStore } from './store'

export interface ApplyRecipeInput {
  readonly home: string
  readonly recipe: ModelRecipe
  /** The llama-server the profile runs. */
  readonly binary: string
  readonly freeVramMiB?: number
  /** HF_ENDPOINT, HF_TOKEN and the cache folders (default: the process environment). */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Progress of each pull in turn (target, then draft). */
  readonly onProgress?: (repo: string, p: PullProgress) => void
}

export interface AppliedRecipe {
  readonly profile: Profile
  readonly fit: FitReport
  readonly targetPath: string
  readonly draftPath: string
}

/** Pulls the recipe's model and draft into the Hugging Face cache, then stores its fitted profile. The CLI and the dashboard both run this. */
export async function applyRecipe(input: ApplyRecipeInput): Promise<AppliedRecipe> {
  const paths: string[] = []
  for (const m of [input.recipe.target, input.recipe.draft]) {
    const pulled = await pullModel({ repo: m.repo, quant: m.quant, ...(input.env ? { env: input.env } : {}), ...(input.onProgress ? { onProgress: (p: PullProgress) => input.onProgress?.(m.repo, p) } : {}) })
    paths.push(pulled.path)
  }
  const [targetPath = '', draftPath = ''] = paths
  const store = await ProfileStore.open(input.home)
  const { profile, fit } = await recipeProfile({ recipe: input.recipe, binary: input.binary, targetPath, draftPath, ...(input.freeVramMiB !== undefined ? { freeVramMiB: input.freeVramMiB } : {}), takenIds: store.file.profiles.map((p) => p.id) })
  await store.upsert(profile)
  // The template's flags come from the build they were measured on; this binary may reject some (mainline 0.5 removed
  // --no-mmap): take the known replacements now, as `profiles fix` would. A binary that cannot be read keeps them.
  const fixed = await acceptFixes(input.home, profile.id).then((r) => r.profile, () => profile)
  return { profile: fixed, fit, targetPath, draftPath }
}
