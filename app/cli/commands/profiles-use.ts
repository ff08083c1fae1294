import type { ProfileActions } from '../../core/profile-actions'
import type { CliContext } from '../command'
import { findRunningServe } from '../../core/serve-record'
import { HomeLock, holderName } from '../../core/home-lock'
import { SwitchFailedError, switchThroughServe } from '../switch-through-serve'

/**
 * `profiles use <id>`: with a `serve` or the app of this home running (its endpoint's record), the switch goes through that serve's scheduler (it waits
 * for the running requests like any request naming the profile) and says when; with none running, the profile is
 * only marked active for the next start.
 */
export async function useProfile(
  io: CliContext,
  actions: ProfileActions,
  profileId: string,
  wait: boolean,
  json: boolean,
): Promise<number> {
  const out = (value: unknown, human: string): void => {
    io.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`)
  }
  const serve = await findRunningServe(io.home)
  if (serve === null) {
    await actions.setActive(profileId)
    // A run (or the app with its endpoint off) holds the home with no endpoint to switch through: said, not hidden.
    const holder = await HomeLock.holder(io.home)
    out(
      { activeProfileId: profileId, switched: false, ...(holder ? { holderPid: holder.pid } : {}) },
      holder
        ? `Profile "${profileId}" is now the active profile for the next start; ${holderName(holder)} keeps its own until it stops.`
        : `Profile "${profileId}" is now the active profile; neither llama-tray serve nor the app runs, so it starts with the next start.`,
    )
    return 0
  }
  try {
    const { accepted, done } = await switchThroughServe(serve, profileId, wait)
    const from = accepted.status.profileId
    const sentence =
      accepted.pendingSwitch?.sentence ??
      (from === profileId && accepted.status.state === 'ready'
        ? `Profile "${profileId}" already runs behind the endpoint at ${serve.origin} (pid ${serve.pid}).`
        : `Profile "${profileId}" starts now behind the endpoint at ${serve.origin} (pid ${serve.pid}).`)
    out({ event: 'accepted', servePid: serve.pid, pendingSwitch: accepted.pendingSwitch, status: accepted.status }, sentence)
    if (done === null) return 0
    await done
    out({ event: 'done', activeProfileId: profileId, switched: true }, `Profile "${profileId}" is ready and active.`)
    return 0
  } catch (err) {
    if (!(err instanceof SwitchFailedError)) throw err
    if (json) out({ event: 'failed', error: err.message }, err.message)
    else io.stderr.write(`llama-tray: ${err.message}\n`)
    return 1
  }
}
