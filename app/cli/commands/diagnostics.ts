import { buildDiagnostics, bundleEntries, saveDiagnosticsZip } from '../../diagnostics/bundle'
import { DiagnosticsError } from '../../diagnostics/diagnostics-error'
import { readGpuOnce } from '../../diagnostics/gpu-once'
import { readGpuInventory } from '../../telemetry/gpu/inventory'
import type { CliCommand, CliContext } from '../command'
import { parseOptions } from '../parse-options'
import { DIAGNOSTICS_HELP } from './diagnostics-help'

declare const __LLAMA_TRAY_VERSION__: string | undefined

async function run(args: readonly string[], io: CliContext): Promise<number> {
  const { values } = parseOptions(args, { out: { type: 'string' }, json: { type: 'boolean' } })
  // The CLI runs no server here: the status and transitions are the app's; the supervisor's log lines say what happened.
  const bundle = await buildDiagnostics({
    home: io.home,
    appVersion: typeof __LLAMA_TRAY_VERSION__ === 'string' ? __LLAMA_TRAY_VERSION__ : 'dev',
    env: process.env,
    status: null,
    transitions: [],
    gpu: () => readGpuOnce(),
    inventory: () => readGpuInventory(),
  })
  if (values.out !== undefined) {
    try {
      await saveDiagnosticsZip(values.out, bundle)
    } catch (err) {
      if (!(err instanceof DiagnosticsError)) throw err
      io.stderr.write(`llama-tray: ${err.message}\n${err.detail ? `  (${err.detail})\n` : ''}`)
      return 1
    }
    io.stderr.write(`Saved ${values.out} (${bundleEntries(bundle).join(', ')}): keys, tokens and your user name are redacted.\n`)
  }
  if (values.json) io.stdout.write(bundle.json)
  else if (values.out === undefined) io.stdout.write(bundle.summary)
  return 0
}

export const diagnosticsCommand: CliCommand = {
  ...DIAGNOSTICS_HELP,
  run,
}
