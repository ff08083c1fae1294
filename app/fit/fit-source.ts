import { profileArgv } from '../profiles/launch-spec'
import { ProfileStore } from '../profiles/store'
import { FitError } from './fit-error'
import { parseLlamaArgs } from './llama-args'

/** The llama-server arguments (without the binary) of a stored profile, by id or name, checked to name a local model. */
export async function profileLaunchArgs(home: string, idOrName: string): Promise<{ args: string[]; profileId: string }> {
  const store = await ProfileStore.open(home)
  const profile = store.find(idOrName)
  if (!profile) throw new FitError(`no profile "${idOrName}" and no such .gguf file`)
  const argv = profileArgv(profile)
  const args = profile.binary === '' ? argv : argv.slice(1)
  if (!parseLlamaArgs(args).model) throw new FitError(`profile "${profile.id}" has no local model file (-m) to read`)
  return { args, profileId: profile.id }
}
