import type { CommandChannels } from '../contract/commands'
import type { ServerStatus } from '../contract/server-state'
import type { PinnedServerView } from '../contract/snapshot'
import type { GpuSnapshot } from '../contract/telemetry'
import { buildDiagnostics, saveDiagnosticsZip } from '../diagnostics/bundle'
import { DiagnosticsError } from '../diagnostics/diagnostics-error'
import { readGpuOnce } from '../diagnostics/gpu-once'
import type { StateTransition } from '../diagnostics/state-history'
import { readGpuInventory } from '../telemetry/gpu/inventory'

export interface DiagnosticsCommandOptions {
  readonly home: string
  /** The app's version (Electron's app.getVersion(); asked only when a bundle is made). */
  readonly appVersion: () => string
  readonly status: () => ServerStatus
  /** The pinned profiles' servers (their states go into the bundle beside their logs). */
  readonly pinned: () => readonly PinnedServerView[]
  readonly transitions: () => readonly StateTransition[]
  /** The telemetry's latest GPU reading; null when it has none (then one reading is taken for the bundle). */
  readonly gpu: () => GpuSnapshot | null
  /** Main's save dialog with a suggested file name; null when cancelled or where there is no dialog. */
  readonly chooseSavePath: (defaultName: string) => Promise<string | null>
}

/** llama-tray-diagnostics-20261202-141955.zip: sorts by time, and says what it is in a Downloads folder. */
export function diagnosticsFileName(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  return `llama-tray-diagnostics-${stamp}.zip`
}

/** The dashboard's Copy and Save diagnostics, over the same bundle as `llama-tray diagnostics`. */
export function diagnosticsCommands(o: DiagnosticsCommandOptions): Pick<CommandChannels, 'diagnostics:summary' | 'diagnostics:save'> {
  const build = () =>
    buildDiagnostics({
      home: o.home,
      appVersion: o.appVersion(),
      env: process.env,
      status: o.status(),
      pinned: o.pinned(),
      transitions: o.transitions(),
      gpu: async () => o.gpu() ?? readGpuOnce(),
      inventory: () => readGpuInventory(),
    })
  return {
    'diagnostics:summary': async () => ({ ok: true, value: (await build()).summary }),
    'diagnostics:save': async () => {
      const path = await o.chooseSavePath(diagnosticsFileName(new Date()))
      if (path === null) return { ok: true, value: null }
      try {
        await saveDiagnosticsZip(path, await build())
        return { ok: true, value: path }
      } catch (err) {
        if (err instanceof DiagnosticsError) return { ok: false, error: err.toProblem() }
        throw err
      }
    },
  }
}
