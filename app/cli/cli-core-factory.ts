import type { CliCore } from '../core/cli-core'
import { createStandardCore } from '../core/create-core'

export interface CliCoreOptions {
  readonly home: string
  /** Give up on a start after this long. */
  readonly readyTimeoutMs: number
  /** The core's cadence (run's --interval); default: the settings' poll interval. */
  readonly cadenceMs?: number
  /** Where a problem with the user's files (heavy-apps.json) is reported. */
  readonly warn: (message: string) => void
}

/** How `run` and `serve` get their core. */
export type CliCoreFactory = (options: CliCoreOptions) => Promise<CliCore>

/**
 * The one standard core (create-core.ts), as the app builds it: the user's heavy-app list, the live advisor. What it
 * had to recover at start (a setting that fell back to its default, a file set aside) is said once, as the app's
 * notice says it.
 */
export const standardCliCore: CliCoreFactory = async ({ home, readyTimeoutMs, cadenceMs, warn }) => {
  const core = await createStandardCore({ home, supervisor: { readyTimeoutMs }, warn, ...(cadenceMs === undefined ? {} : { cadenceMs }) })
  for (const message of core.startupMessages) warn(message)
  return core
}
