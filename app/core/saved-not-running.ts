import type { LaunchSpec } from '../contract/commands'
import { resolveProfileLaunch } from '../profiles/resolve-launch'
import { sameLaunchSpec } from '../supervisor/same-launch'

/**
 * Whether the running profile's stored launch differs from the one its server runs: a save of the running profile
 * applies after a restart ("Apply and restart"). False when the profile cannot be resolved (its own failure says why).
 */
export async function savedDiffersFromRunning(home: string, running: LaunchSpec): Promise<boolean> {
  try {
    const { spec } = await resolveProfileLaunch(home, running.profileId)
    return !sameLaunchSpec(spec, running)
  } catch {
    return false
  }
}
