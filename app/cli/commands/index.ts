import type { CliCommand } from '../command'
import { enginesCommand } from './engines'
import { gpuCommand } from './gpu'
import { profilesCommand } from './profiles'
import { runCommand } from './run'
import { serveCommand } from './serve'
import { fitCommand } from './fit'
import { benchCommand } from './bench'
import { compareCommand } from './compare'
import { tuneCommand } from './tune'
import { lintCommand } from './lint'
import { modelsCommand } from './models'
import { diagnosticsCommand } from './diagnostics'
import { settingsCommand } from './settings'

/** Every CLI command, in the order the usage text lists them. Add new commands here. */
export const COMMANDS: readonly CliCommand[] = [
  runCommand,
  serveCommand,
  profilesCommand,
  modelsCommand,
  enginesCommand,
  gpuCommand,
  fitCommand,
  lintCommand,
  benchCommand,
  compareCommand,
  tuneCommand,
  settingsCommand,
  diagnosticsCommand,
]
