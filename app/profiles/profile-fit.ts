import { profileArgv } from './launch-spec'
import { ProfileStore } from './store'
import { FitError } from '../fit/fit-error'
import type { FitReport } from '../contract/fit'
import { buildFitReport, type FitInput } from '../fit/fit-report'
import { readGgufModel } from '../fit/gguf-model'
import { parseLlamaArgs } from '../fit/llama-args'

/** The llama-server arguments (without the binary) of a stored profile, by id or name, checked to name a local model. */
export async function profileLaunchArgs(home: string, idOrName: string): Promise<{ args: string[]; profileId: string; binary: string }> {
  const store = await ProfileStore.open(home)
  const profile = store.find(idOrName)
  if (!profile) throw new FitError(`no profile "${idOrName}" and no such .gguf file`)
  const argv = profileArgv(profile)
  const args = profile.binary === '' ? argv : argv.slice(1)
  if (!parseLlamaArgs(args).model) throw new FitError(`profile "${profile.id}" has no local model file (-m) to read`)
  return { args, profileId: profile.id, binary: profile.binary === '' ? '' : (argv[0] ?? '') }
}

/** The budget a fit is made against: free VRAM (null: estimate the given placement only), headroom, the runtime's size. */
export type FitBudget = Omit<FitInput, 'model' | 'draft' | 'settings'>

/**
 * The fit of llama-server arguments (a profile's, or `-m file.gguf` with the CLI's overrides): their GGUF(s) read and
 * the report built against the budget. `fit:estimate` and `llama-tray fit` both come here.
 */
export async function fitLaunchArgs(args: readonly string[], budget: FitBudget): Promise<FitReport> {
  const launch = parseLlamaArgs(args)
  const model = await readGgufModel(launch.model as string)
  const draft = launch.settings.draft ? await readGgufModel(launch.settings.draft.path) : null
  return buildFitReport({ model, draft, settings: launch.settings, ...budget })
}

/** The fit of a stored profile: its GGUF(s) and memory flags, against a free-VRAM budget (null: estimate only). */
export async function fitProfile(
  home: string,
  idOrName: string,
  budget: { freeVramMiB: number | null; headroomMiB: number; runtimeMiB?: number | null },
): Promise<FitReport> {
  const { args } = await profileLaunchArgs(home, idOrName)
  const runtime =
    budget.runtimeMiB === undefined || budget.runtimeMiB === null
      ? {}
      : { runtimeMiB: budget.runtimeMiB, runtimeSource: 'measured' as const }
  return fitLaunchArgs(args, {
    freeVramMiB: budget.freeVramMiB,
    headroomMiB: budget.headroomMiB,
    vramSource: budget.freeVramMiB === null ? 'none' : 'telemetry',
    ...runtime,
  })
}
