import type { CliCommand, CommandHelp } from '../command'
import { BENCH_HELP } from './bench-help'
import { COMPARE_HELP } from './compare-help'
import { DIAGNOSTICS_HELP } from './diagnostics-help'
import { ENGINES_HELP } from './engines-help'
import { FIT_HELP } from './fit-help'
import { GPU_HELP } from './gpu-help'
import { HISTORY_HELP } from './history-help'
import { LINT_HELP } from './lint-help'
import { MODELS_HELP } from './models-help'
import { PROFILES_HELP } from './profiles-help'
import { RUN_HELP } from './run-help'
import { SERVE_HELP } from './serve-help'
import { SETTINGS_HELP } from './settings-help'
import { TUNE_HELP } from './tune-help'

/**
 * A command whose module, and all it imports (zod, the core, tar…), loads only when it runs: the usage
 * text, a typo's suggestion and a bad $LLAMA_TRAY_PORT need none of it, and each command the rest of none.
 */
function onDemand(help: CommandHelp, load: () => Promise<CliCommand>): CliCommand {
  return { ...help, run: async (args, context) => (await load()).run(args, context) }
}

/** Every CLI command, in the order the usage text lists them. Add new commands here. */
export const COMMANDS: readonly CliCommand[] = [
  onDemand(RUN_HELP, async () => (await import('./run')).runCommand),
  onDemand(SERVE_HELP, async () => (await import('./serve')).serveCommand),
  onDemand(PROFILES_HELP, async () => (await import('./profiles')).profilesCommand),
  onDemand(MODELS_HELP, async () => (await import('./models')).modelsCommand),
  onDemand(ENGINES_HELP, async () => (await import('./engines')).enginesCommand),
  onDemand(GPU_HELP, async () => (await import('./gpu')).gpuCommand),
  onDemand(FIT_HELP, async () => (await import('./fit')).fitCommand),
  onDemand(LINT_HELP, async () => (await import('./lint')).lintCommand),
  onDemand(BENCH_HELP, async () => (await import('./bench')).benchCommand),
  onDemand(COMPARE_HELP, async () => (await import('./compare')).compareCommand),
  onDemand(TUNE_HELP, async () => (await import('./tune')).tuneCommand),
  onDemand(SETTINGS_HELP, async () => (await import('./settings')).settingsCommand),
  onDemand(DIAGNOSTICS_HELP, async () => (await import('./diagnostics')).diagnosticsCommand),
  onDemand(HISTORY_HELP, async () => (await import('./history')).historyCommand),
]
