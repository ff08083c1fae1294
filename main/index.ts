import { createStandardCore } from '../app/core/create-core'
import { startShell } from './shell'

// Composition root: the Electron shell over the core. Everything else is in shell.ts.
startShell({
  argv: process.argv,
  env: process.env,
  platform: process.platform,
  mainDir: __dirname,
  createCore: ({ home, bootSettings, chooseFile, openPath, log }) =>
    createStandardCore({ home, intervalMs: bootSettings.pollIntervalMs, chooseFile, openPath, warn: (m) => log.warn(m) }),
})
