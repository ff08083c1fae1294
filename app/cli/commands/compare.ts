import { compareProfiles } from '../../bench/compare'
import { runBenchCli, type OutputFormat } from '../bench-run'
import { UsageError } from '../cli-error'
import type { CliCommand } from '../command'
import { parseOptions } from '../parse-options'
import { BENCH_OPTIONS, outputFormat, wholeNumber } from './bench'
import { COMPARE_HELP } from './compare-help'

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
  ...COMPARE_HELP,
  run: async (args, io) => {
    const o = parseCompareArgs(args)
    return runBenchCli(io, { format: o.format }, (deps) =>
      compareProfiles(deps, o.profiles, { runs: o.runs, tokens: o.tokens, rounds: o.rounds }),
    )
  },
}
