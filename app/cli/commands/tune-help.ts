import type { CommandHelp } from '../command'

/** What the usage text says of `tune`; the command's own module loads only when it runs (see ./index.ts). */
export const TUNE_HELP: CommandHelp = {
  name: 'tune',
  summary: 'find the fastest --n-cpu-moe (and draft on/off) that keeps the VRAM headroom free',
  usage: `  llama-tray tune <profile> [--save NAME] [--runs N] [--tokens N] [--radius R] [--headroom-mib M] [--json | --markdown | --csv]
    Measures free VRAM with the server stopped, asks the fit for --n-cpu-moe, then tries the suggestion ± R
    (default 2), with the draft on and off when the profile has one. A setting whose free VRAM once loaded is
    under the headroom (default: the settings' vramHeadroomMiB, 1536) is skipped; the rest are benched and the
    fastest recommended. --save NAME stores it as a new profile. Ctrl+C cancels and puts the server back.`,
}
