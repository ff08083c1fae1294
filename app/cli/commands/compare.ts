import { compareProfiles } from '../../bench/compare'
import { runBenchCli, type OutputFormat } from '../bench-run'
import { UsageError } from '../cli-error'
import type { CliCommand } from '../command'
import { parseOptions } from '../parse-options'
import { BENCH_OPTIONS, outputFormat, wholeNumber } from './bench'

export function parseCompareArgs(args: readonly string[]): {
  profiles: string[]
  runs: number
  tokens: number
  rounds: number
  format: OutputFormat
} {
  const { values, positionals } = parseOptions(args, { ...BENCH_OPTIONS, rounds: { type: 'string' } }, true)
  if (positionals.length < 2) throw new UsageError('Compare needs at least two profiles (ids or names).')
  return {
    profiles: positionals,
    runs: wholeNumber('runs', values.runs, 3, 1000),
    tokens: wholeNumber('tokens', values.tokens, 256, 100_000),
    rounds: wholeNumber('rounds', values.rounds, 2, 100),
    format: outputFormat(values),
  }
}

export const compareCommand: CliCommand = {
  name: 'compare',
  summary: 'benchmark profiles one after another and table them with ratios against the first',
  usage: `  llama-tray compare <A> <B> [...] [--runs N] [--tokens N] [--rounds R] [--json | --markdown | --csv]
    Benches each profile in turn (stop, start, warm up, runs), --rounds times (default 2) with the order
    reversed every other round so drift falls on all alike; --runs is per prompt per round (default 3).
    Prints engine × model × KV cache → decode and prompt tok/s on the narrative and code prompts, with
    ratios against A; stored with the hardware and exact arguments in <home>/bench/. Ctrl+C cancels.`,
  run: async (args, io) => {
    const o = parseCompareArgs(args)
    return runBenchCli(io, { format: o.format }, (deps) =>
      compareProfiles(deps, o.profiles, { runs: o.runs, tokens: o.tokens, rounds: o.rounds }),
    )
  },
}
