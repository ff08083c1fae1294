import type { CommandChannels, Result } from '../contract/commands'
import type { ProfileSummary } from '../contract/profile'
import type { GpuDevice } from '../contract/telemetry'
import { profileSummary } from '../profiles/profile-summary'
import type { Profile } from '../profiles/schema'
import { ProfileStore, ProfileStoreError } from '../profiles/store'
import { profileActions } from './profile-actions'

export interface PinCommandOptions {
  readonly home: string
  /** A GPU reading taken now (its first device); null without a GPU. */
  readonly gpu: () => Promise<GpuDevice | null>
  readonly onChanged: (store: ProfileStore) => Promise<void>
}

/**
 * `profiles:pin` and `profiles:unpin`: the profile actions `llama-tray profiles pin|unpin` runs, as Results. The core's
 * pinned servers follow profiles.json, so a pin starts the server and an unpin stops it.
 */
export function pinCommands(options: PinCommandOptions): Pick<CommandChannels, 'profiles:pin' | 'profiles:unpin'> {
  const actions = profileActions({ home: options.home, onChanged: options.onChanged })
  const answer = async (job: () => Promise<Profile>): Promise<Result<ProfileSummary>> => {
    try {
      const profile = await job()
      return { ok: true, value: profileSummary(profile, (await ProfileStore.open(options.home)).file.activeProfileId) }
    } catch (err) {
      if (err instanceof ProfileStoreError) return { ok: false, error: err.toProblem() }
      throw err
    }
  }
  return {
    'profiles:pin': async (profileId) => answer(async () => actions.pin(profileId, options.gpu)),
    'profiles:unpin': (profileId) => answer(() => actions.unpin(profileId)),
  }
}
