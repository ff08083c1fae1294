import type { LlamaTrayApi } from '../../../app/contract/commands'
import { setApi } from './api'
import { receiveBenchProgress } from './bench-store'
import { receiveEngineProgress, receiveModelProgress } from './first-run-store'
import { recordGenerationHistory } from './chart-histories'
import { appendLogLines, appendPinnedLogLines, replaceLogLines } from './log-store'
import { receiveProfiles } from './profile-store'
import { receiveSettings } from './settings-store'
import { receiveSnapshot } from './snapshot-store'
import { receiveStatus } from './status-store'

/** Initial log tail fetched at start (the log view refreshes it when opened). */
const INITIAL_LOG_LINES = 2000

/**
 * Connects every store to main's pushes, once, then fetches the current
 * values. Returns a function that unsubscribes everything.
 */
export function connectStores(api: LlamaTrayApi): () => void {
  setApi(api)
  const offs = [
    api.onServerStateChanged(receiveStatus),
    api.onSnapshot(receiveSnapshot),
    api.onServerLog(appendLogLines),
    api.onServerPinnedLog(appendPinnedLogLines),
    api.onProfilesChanged(receiveProfiles),
    api.onSettingsChanged(receiveSettings),
    api.onBenchProgress(receiveBenchProgress),
    api.onEnginesProgress(receiveEngineProgress),
    api.onModelsProgress(receiveModelProgress),
  ]
  void api.serverStatus().then(receiveStatus)
  void api.snapshotLatest().then((s) => s && receiveSnapshot(s))
  // The charts' past: the core keeps it out of the snapshots it pushes.
  void api.generationHistory().then(recordGenerationHistory)
  void api.serverLogs(INITIAL_LOG_LINES).then(replaceLogLines)
  void api.profilesList().then(receiveProfiles)
  void api.settingsGet().then(receiveSettings)
  // Telemetry polls only while the window is shown (or a server runs).
  const visibility = (): void => void api.dashboardVisible(document.visibilityState === 'visible')
  visibility()
  document.addEventListener('visibilitychange', visibility)
  return () => {
    for (const off of offs) off()
    document.removeEventListener('visibilitychange', visibility)
  }
}
