import type { CommandHelp } from '../command'

/** What the usage text says of `lint`; the command's own module loads only when it runs (see ./index.ts). */
export const LINT_HELP: CommandHelp = {
  name: 'lint',
  summary:
    'check a profile or a llama-server command against what was measured on RTX 4060 Laptop and RTX 3090 machines (and what the binary ' +
    'accepts)',
  usage: `  llama-tray lint <profile> | --cmd "<llama-server command>" [--platform win32|linux|darwin] [--json]
    Reads the binary (engine detection) and the model and draft GGUFs where they exist; rules needing what
    could not be read are skipped and named. Exit code 1 when an error-level finding remains.`,
}
