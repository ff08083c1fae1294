import type { Result } from '../contract/commands'
import type { FitEstimate, LlamaFitComparison } from '../contract/fit'
import { FitError } from '../fit/fit-error'
import { formatLlamaFit } from '../fit/format-llama-fit'
import { fitParamsBeside, llamaFitDryRun, type RunProcess } from '../fit/llama-fit-dry-run'
import { profileLaunchArgs } from '../profiles/profile-fit'
import { failed } from '../lib/failed'

/**
 * fit:llama-plan: llama.cpp's own fit for a stored profile (a dry run of
 * llama-fit-params beside its llama-server), beside our estimate for the same
 * budget and headroom.
 */
export async function llamaFitPlan(
  home: string,
  profileId: string,
  estimate: (profileId: string) => Promise<Result<FitEstimate>>,
  headroomMiB: number,
  run?: RunProcess,
): Promise<Result<LlamaFitComparison>> {
  try {
    const ours = await estimate(profileId)
    if (!ours.ok) return ours
    const { args, binary } = await profileLaunchArgs(home, profileId)
    const tool = binary === '' ? null : fitParamsBeside(binary)
    if (tool === null) {
      return failed(
        'fit',
        `llama.cpp's own fit cannot be asked: there is no llama-fit-params beside ${binary || 'this profile’s llama-server'} ` +
          `(llama.cpp's release archives ship it: installing llama.cpp from Llama Tray gets one).`,
      )
    }
    const plan = await llamaFitDryRun(tool, args, headroomMiB, run)
    return { ok: true, value: { plan, lines: formatLlamaFit(plan, ours.value.report, headroomMiB) } }
  } catch (err) {
    if (err instanceof FitError) return { ok: false, error: err.toProblem() }
    throw err
  }
}
