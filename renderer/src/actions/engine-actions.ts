import type { Result } from '../../../app/contract/commands'
import type {
  BackendChoice,
  EngineInstallPlan,
  EngineInstallProgress,
  EngineInstallResult,
  EngineListing,
  EngineUpdateCheck,
  EngineUpdateReport,
  InstalledEngineSummary,
} from '../../../app/contract/engines'
import { api } from '../stores/api'

export function listEngines(): Promise<Result<EngineListing>> {
  return api().enginesList()
}

/** Installs a release (tag null: the latest), progress as engines:progress events. */
export function installEngine(backend: BackendChoice, tag: string | null = null): Promise<Result<EngineInstallResult>> {
  return api().enginesInstall({ backend, tag })
}

/** What installEngine would download (the backend auto picks, the GPU behind it, the size), downloading nothing. */
export function planEngineInstall(backend: BackendChoice): Promise<Result<EngineInstallPlan>> {
  return api().enginesPlan({ backend, tag: null })
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

/** The daily notice of a newer release (null when off or nothing to say). */
export function engineUpdateNotice(): Promise<EngineUpdateCheck | null> {
  return api().enginesUpdateNotice()
}

/** Tries the newest release on a profile through the safety gate (its bench on old and new). */
export function updateProfileEngine(profileId: string): Promise<Result<EngineUpdateReport>> {
  return api().enginesUpdate(profileId)
}

export function rollbackProfileEngine(profileId: string): Promise<Result<{ readonly profileId: string; readonly binary: string }>> {
  return api().enginesRollback(profileId)
}
