import { createStandardCore } from '../app/core/create-core'
import { HomeLock } from '../app/core/home-lock'
import { startShell } from './shell'

// Composition root: the Electron shell over the core. Everything else is in shell.ts.
startShell({
  argv: process.argv,
  env: process.env,
  platform: process.platform,
  mainDir: __dirname,
  lockHome: (home) => HomeLock.acquire(home, 'app'),
  createCore: async ({ home, bootSettings, chooseFile, chooseSavePath, appVersion, openPath, log, power }) => {
    const options = { home, intervalMs: bootSettings.pollIntervalMs, chooseFile, chooseSavePath, appVersion, openPath, power }
    const core = await createStandardCore({ ...options, warn: (m) => log.warn(m) })
    const endpoint = await core.applyEndpointSetting() // the one address clients use (settings "endpoint" and "port")
    if (endpoint && !endpoint.ok) log.warn(endpoint.error)
    void core.servePinned() // the pinned profiles run beside the active one with the endpoint on or off
    return core
  },
})
