import type { Result } from '../../../app/contract/commands'
import type { ModelPullResult } from '../../../app/contract/models'
import { api } from '../stores/api'

/** Pulls "org/name[:quant]" from the Hugging Face Hub into its cache; progress as models:progress events. */
export function pullModel(ref: string): Promise<Result<ModelPullResult>> {
  return api().modelsPull(ref, null)
}
