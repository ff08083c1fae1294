import { cachedEngine } from '../profiles/fork-detect'
import { offersChildChannel } from '../supervisor/child-channel'

/**
 * Whether the supervisors offer a binary llama-server's child channel: from what the engine cache knows of it
 * (fork and version, never running it); a binary not probed yet is offered it, and its first line confirms it.
 */
export function childChannelGate(home: string): (exe: string) => Promise<boolean> {
  return async (exe) => offersChildChannel(await cachedEngine(home, exe).catch(() => null))
}
