import type { Result } from '../../../app/contract/commands'
import type { BackendChoice, EngineInstallProgress, EngineInstallResult, EngineListing, EngineUpdateCheck, InstalledEngineSummary } from '../../../app/contract/engines'
import { api } from '../stores/api'

export function listEngines(): Promise<Result<EngineListing>> {
  return api().enginesList()
}

export function installEngine(backend: BackendChoice): Promise<Result<EngineInstallResult>> {
  return api().enginesInstall({ backend, tag: null })
}

export function removeEngine(id: string): Promise<Result<InstalledEngineSummary>> {
  return api().enginesRemove(id, false)
}

export function checkEngineUpdate(): Promise<Result<EngineUpdateCheck>> {
  return api().enginesCheckUpdate()
}

/** Subscribes to install progress; returns the unsubscribe. */
export function onEngineProgress(listener: (p: EngineInstallProgress) => void): () => void {
  return api().onEnginesProgress(listener)
}
