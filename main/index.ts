import { join } from 'node:path'
import { createLiveAdvisor } from '../app/advisor/live-advisor'
import { LlamaTrayCore } from '../app/core/llama-tray-core'
import { loadHeavyAppList } from '../app/telemetry/cpu/heavy-apps'
import { TelemetryService } from '../app/telemetry/telemetry-service'
import { startShell } from './shell'

// Composition root: the Electron shell over the core. Everything else is in shell.ts.
startShell({
  argv: process.argv,
  env: process.env,
  platform: process.platform,
  mainDir: __dirname,
  createCore: ({ home, bootSettings, chooseFile, openPath, log }) => {
    const heavy = loadHeavyAppList(join(home, 'heavy-apps.json'))
    if (heavy.problem) log.warn(heavy.problem)
    const telemetry = new TelemetryService({ intervalMs: bootSettings.pollIntervalMs, heavyApps: heavy.list })
    const advisor = createLiveAdvisor({ home })
    return LlamaTrayCore.create({ home, telemetry, chooseFile, openPath, warnings: advisor.warnings, applyWarningFix: advisor.applyWarningFix })
  },
})
