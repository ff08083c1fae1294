import type { CommandHelp } from '../command'

/** What the usage text says of `compare`; the command's own module loads only when it runs (see ./index.ts). */
export const COMPARE_HELP: CommandHelp = {
  name: 'compare',
  summary: 'benchmark profiles one after another and table them with ratios against the first',
  usage: `  llama-tray compare <A> <B> [...] [--runs N] [--tokens N] [--rounds R] [--json | --markdown | --csv]
    Benches each profile in turn (stop, start, warm up, runs), --rounds times (default 2) with the order
    reversed every other round so drift falls on all alike; --runs is per prompt per round (default 3).
    Prints engine × model × KV cache → decode and prompt tok/s on the narrative and code prompts, with
    ratios against A; stored with the hardware and exact arguments in <home>/bench/. Ctrl+C cancels.`,
}
