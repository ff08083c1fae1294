import type { FitReport } from '../contract/fit'
import { pullModel, type PullProgress } from '../models'
import { recipeProfile, type ModelRecipe } from './recipes'
import { gateProfile } from './profile-gate'
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

/**
 * Pulls the recipe's model and draft into the Hugging Face cache, then stores its fitted profile. The CLI and the dashboard both run this.
 */
export async function applyRecipe(input: ApplyRecipeInput): Promise<AppliedRecipe> {
  const paths: string[] = []
  for (const m of [input.recipe.target, input.recipe.draft]) {
    const pulled = await pullModel({
      repo: m.repo,
      quant: m.quant,
      ...(input.env ? { env: input.env } : {}),
      ...(input.onProgress ? { onProgress: (p: PullProgress) => input.onProgress?.(m.repo, p) } : {}),
    })
    paths.push(pulled.path)
  }
  const [targetPath = '', draftPath = ''] = paths
  const store = await ProfileStore.open(input.home)
  const { profile, fit } = await recipeProfile({
    recipe: input.recipe,
    binary: input.binary,
    targetPath,
    draftPath,
    ...(input.freeVramMiB !== undefined ? { freeVramMiB: input.freeVramMiB } : {}),
    takenIds: store.file.profiles.map((p) => p.id),
  })
  // The template's flags come from the build they were measured on; this binary may spell some differently (mainline 0.5
  // removed --no-mmap): the gate writes its spelling before the profile is stored.
  const fixed = (await gateProfile(profile, { home: input.home })).profile
  await store.upsert(fixed)
  return { profile: fixed, fit, targetPath, draftPath }
}
