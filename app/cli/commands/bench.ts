import { benchProfile } from '../../bench/compare'
import { runBenchCli, type OutputFormat } from '../bench-run'
import { UsageError } from '../cli-error'
import type { CliCommand } from '../command'
import { parseOptions } from '../parse-options'
import { BENCH_HELP } from './bench-help'

/** Options shared by bench, compare and tune. */
export const BENCH_OPTIONS = {
  runs: { type: 'string' },
  tokens: { type: 'string' },
  json: { type: 'boolean' },
  markdown: { type: 'boolean' },
  csv: { type: 'boolean' },
} as const

export function wholeNumber(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`The option --${name} needs a whole number from 1 to ${max}, got "${text}".`)
  return n
}

export function outputFormat(values: { json?: boolean; markdown?: boolean; csv?: boolean }): OutputFormat {
  const chosen = (['json', 'markdown', 'csv'] as const).filter((f) => values[f])
  if (chosen.length > 1) throw new UsageError(`Choose one output format, not ${chosen.map((f) => `--${f}`).join(' and ')}.`)
  return chosen[0] ?? 'text'
}

export function parseBenchArgs(args: readonly string[]): { profile: string; runs: number; tokens: number; format: OutputFormat } {
  const { values, positionals } = parseOptions(args, BENCH_OPTIONS, true)
  if (positionals.length !== 1) throw new UsageError('Bench needs exactly one profile (id or name).')
  return {
    profile: positionals[0] as string,
    runs: wholeNumber('runs', values.runs, 3, 1000),
    tokens: wholeNumber('tokens', values.tokens, 256, 100_000),
    format: outputFormat(values),
  }
}

export const benchCommand: CliCommand = {
  ...BENCH_HELP,
  run: async (args, io) => {
    const o = parseBenchArgs(args)
    return runBenchCli(io, { format: o.format }, (deps) => benchProfile(deps, o.profile, { runs: o.runs, tokens: o.tokens }))
  },
}
