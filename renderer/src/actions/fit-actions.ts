import type { Result } from '../../../app/contract/commands'
import type { FitEstimate, LlamaFitComparison } from '../../../app/contract/fit'
import type { ProfileSummary } from '../../../app/contract/profile'
import { api } from '../stores/api'
import { loadProfile, setProfileSetting } from './profile-actions'

/** The fit of a stored profile, and its current --n-cpu-moe (0 when unset). */
export async function estimateFit(profileId: string): Promise<{ readonly result: Result<FitEstimate>; readonly nCpuMoe: number }> {
  const [result, doc] = await Promise.all([api().fitEstimate(profileId), loadProfile(profileId)])
  return { result, nCpuMoe: doc?.settings.nCpuMoe ?? 0 }
}

/** The fit's one-click suggestion. */
export function applyNCpuMoe(profileId: string, n: number): Promise<Result<ProfileSummary>> {
  return setProfileSetting(profileId, 'nCpuMoe', n)
}

/** llama.cpp's own fit for the profile (a dry run on the GPU that takes seconds), beside ours. */
export function askLlamaFit(profileId: string): Promise<Result<LlamaFitComparison>> {
  return api().fitLlamaPlan(profileId)
}
