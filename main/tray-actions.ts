import type { CommandChannels } from '../app/contract/commands'
import type { AppLog } from './app-log'
import type { TrayActions } from './tray-menu'

export interface TrayActionDeps {
  readonly handlers: Pick<
    CommandChannels,
    'server:start' | 'server:stop' | 'server:restart' | 'profiles:pin' | 'profiles:unpin' | 'server:switch-now' | 'shell:open-logs-folder'
  >
  readonly openDashboard: () => void
  readonly quit: () => void
  readonly onStartFailed: (profileId: string, error: string) => void
  readonly onRestartFailed: (error: string) => void
  /** A pin refused (it does not fit beside the active and pinned profiles, or the profile is the active one) or an unpin refused. */
  readonly onPinFailed: (profileId: string, pinned: boolean, error: string) => void
  readonly log: AppLog
}

/** The tray's clicks, through the same core handlers the dashboard calls (a start while another runs is a switch). */
export function trayActionsFor(deps: TrayActionDeps): TrayActions {
  const failed = (what: string) => (err: Error) => deps.log.error(`${what} failed: ${err.message}`)
  return {
    start: (profileId) =>
      void deps.handlers['server:start'](profileId).then(
        (result) => {
          if (!result.ok) deps.onStartFailed(profileId, result.error.sentence)
        },
        failed(`start ${profileId}`),
      ),
    stop: () => void deps.handlers['server:stop']().catch(failed('stop')),
    restart: () =>
      void deps.handlers['server:restart']().then((result) => {
        if (!result.ok) deps.onRestartFailed(result.error.sentence)
      }, failed('restart')),
    setPinned: (profileId, pinned) =>
      void deps.handlers[pinned ? 'profiles:pin' : 'profiles:unpin'](profileId).then(
        (result) => {
          if (!result.ok) deps.onPinFailed(profileId, pinned, result.error.sentence)
        },
        failed(`${pinned ? 'pin' : 'unpin'} ${profileId}`),
      ),
    switchNow: () =>
      void deps.handlers['server:switch-now']().then((result) => {
        // The switch went ahead already (or was withdrawn) between the menu's build and the click: nothing to say.
        if (!result.ok) deps.log.info(`switch now: ${result.error.sentence}`)
      }, failed('switch now')),
    openDashboard: deps.openDashboard,
    openLogsFolder: () => void deps.handlers['shell:open-logs-folder']().catch(failed('open logs folder')),
    quit: deps.quit,
  }
}
