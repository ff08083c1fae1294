import { join } from 'node:path'
import { createLiveAdvisor } from '../advisor/live-advisor'
import { loadHeavyAppList } from '../telemetry/cpu/heavy-apps'
import { TelemetryService } from '../telemetry/telemetry-service'
import { LlamaTrayCore, type CoreOptions } from './llama-tray-core'

export interface StandardCoreOptions extends Partial<Omit<CoreOptions, 'home'>> {
  readonly home: string
  /** Telemetry cadence (the settings' pollIntervalMs). */
  readonly intervalMs?: number
  /** Where a problem with the user's heavy-app list is reported. */
  readonly warn?: (message: string) => void
}

/**
 * The core as the app and the CLI run it: telemetry with the user's heavy-app
 * list (<home>/heavy-apps.json), and the live advisor for warnings and fixes.
 */
export function createStandardCore(options: StandardCoreOptions): Promise<LlamaTrayCore> {
  const { home, intervalMs, warn, ...rest } = options
  const heavy = loadHeavyAppList(join(home, 'heavy-apps.json'))
  if (heavy.problem) warn?.(heavy.problem)
  const telemetry = new TelemetryService({ intervalMs, heavyApps: heavy.list })
  const advisor = createLiveAdvisor({ home, sharedGpuMemoryMiB: (pid) => telemetry.sharedGpuMemoryMiB(pid) })
  return LlamaTrayCore.create({
    home,
    telemetry,
    warnings: advisor.warnings,
    applyWarningFix: advisor.applyWarningFix,
    mutes: advisor.mutes,
    ...rest,
  })
}
