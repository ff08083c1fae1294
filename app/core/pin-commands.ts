import type { CommandChannels } from '../contract/commands'
import type { GpuDevice } from '../contract/telemetry'
import { profileSummary } from '../profiles/profile-summary'
import { ProfileStore, ProfileStoreError } from '../profiles/store'
import { pinBudget, pinRefusal } from './pin-check'

export interface PinCommandOptions {
  readonly home: string
  /** A GPU reading taken now (its first device); null without a GPU. */
  readonly gpu: () => Promise<GpuDevice | null>
  readonly onChanged: (store: ProfileStore) => Promise<void>
}

/**
 * `profiles:pin` and `profiles:unpin`: the same checks and sentences as `llama-tray profiles pin|unpin`. The core's
 * pinned servers follow profiles.json, so a pin starts the server and an unpin stops it.
 */
export function pinCommands(options: PinCommandOptions): Pick<CommandChannels, 'profiles:pin' | 'profiles:unpin'> {
  const { home } = options
  return {
    'profiles:pin': async (profileId) => {
      const refusal = await pinRefusal(home, profileId, await pinBudget(home, await options.gpu()))
      if (refusal !== null) return { ok: false, error: refusal }
      return setPinned(profileId, true)
    },
    'profiles:unpin': async (profileId) => {
      const store = await ProfileStore.open(home)
      const profile = store.find(profileId)
      if (profile && !profile.pinned)
        return {
          ok: false,
          error: `Profile "${profile.id}" is not pinned, so there is nothing to unpin; the profile list marks the pinned ones.`,
        }
      return setPinned(profileId, false)
    },
  }

  async function setPinned(profileId: string, pinned: boolean) {
    const store = await ProfileStore.open(home)
    const id = store.find(profileId)?.id ?? profileId
    try {
      await store.setPinned(id, pinned)
    } catch (err) {
      if (err instanceof ProfileStoreError)
        return { ok: false as const, error: `There is no profile "${profileId}"; choose one from the profile list.` }
      throw err
    }
    await options.onChanged(store)
    const stored = store.find(id)
    if (!stored) return { ok: false as const, error: `There is no profile "${profileId}"; choose one from the profile list.` }
    return { ok: true as const, value: profileSummary(stored, store.file.activeProfileId) }
  }
}
