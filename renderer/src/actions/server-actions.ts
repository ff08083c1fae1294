import type { Result } from '../../../app/contract/commands'
import type { ServerStatus } from '../../../app/contract/server-state'
import { api } from '../stores/api'

// What the server controls do, in one place (components never call commands
// themselves). Each answer is main's: state arrives through the pushed status.

export function startServer(profileId: string): Promise<Result<ServerStatus>> {
  return api().serverStart(profileId)
}

export function stopServer(): Promise<ServerStatus> {
  return api().serverStop()
}

export function restartServer(): Promise<Result<ServerStatus>> {
  return api().serverRestart()
}

/** The waiting switch happens now; its running requests end with an error naming it. */
export function switchNow(): Promise<Result<string>> {
  return api().serverSwitchNow()
}

/** Withdraws the waiting switch: the running profile is chosen again, and the last choice wins. */
export function keepRunning(runningProfileId: string): Promise<Result<ServerStatus>> {
  return startServer(runningProfileId)
}
