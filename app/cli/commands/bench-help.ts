import type { CommandHelp } from '../command'

/** What the usage text says of `bench`; the command's own module loads only when it runs (see ./index.ts). */
export const BENCH_HELP: CommandHelp = {
  name: 'bench',
  summary: 'benchmark a profile: prompt and generation tok/s, draft acceptance, VRAM, on a fixed prompt set',
  usage: `  llama-tray bench <profile> [--runs N] [--tokens N] [--json | --markdown | --csv]
    Starts the profile's llama-server, warms it up, then runs a narrative and a code prompt N times each
    (default 3) generating --tokens tokens (default 256; ignore_eos, fixed sampling RNG, no prompt cache).
    Figures are the server's own timings; runs disturbed by a busy heavy app or GPU throttling are flagged.
    The result is stored in <home>/bench/. Ctrl+C cancels and leaves no server behind.`,
}
