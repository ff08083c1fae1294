import type { Result } from '../../../app/contract/commands'
import type { AppliedRecipeResult, ModelPullResult, ModelRecipeSummary } from '../../../app/contract/models'
import { api } from '../stores/api'

/** Pulls "org/name[:quant]" from the Hugging Face Hub into its cache; progress as models:progress events. */
export function pullModel(ref: string): Promise<Result<ModelPullResult>> {
  return api().modelsPull(ref, null)
}

/** The one-click setups (a model, its draft and a fitted profile). */
export function listRecipes(): Promise<readonly ModelRecipeSummary[]> {
  return api().modelsRecipes()
}

/** Pulls a recipe's two files (progress as models:progress) and stores its profile, fitted to this GPU. */
export function applyRecipe(recipeId: string): Promise<Result<AppliedRecipeResult>> {
  return api().modelsApplyRecipe(recipeId)
}
