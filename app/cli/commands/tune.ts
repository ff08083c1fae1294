import { runBenchCli, type OutputFormat } from '../bench-run'
import { tuneProfile } from '../../bench/tune'
import { UsageError } from '../cli-error'
import type { CliCommand } from '../command'
import { parseOptions } from '../parse-options'
import { BENCH_OPTIONS, outputFormat, wholeNumber } from './bench'
import { TUNE_HELP } from './tune-help'

export interface TuneCliOptions {
  readonly profile: string
  readonly runs: number
  readonly tokens: number
  readonly radius: number
  readonly headroomMiB: number | null
  readonly saveAs: string | null
  readonly format: OutputFormat
}

export function parseTuneArgs(args: readonly string[]): TuneCliOptions {
  const { values, positionals } = parseOptions(
    args,
    { ...BENCH_OPTIONS, save: { type: 'string' }, radius: { type: 'string' }, 'headroom-mib': { type: 'string' } },
    true,
  )
  if (positionals.length !== 1) throw new UsageError('Tune needs exactly one profile (id or name).')
  const headroomText = values['headroom-mib']
  const headroom = headroomText === undefined ? null : Number(headroomText)
  if (headroom !== null && (!Number.isFinite(headroom) || headroom < 0))
    throw new UsageError(`The option --headroom-mib needs a number ≥ 0, got "${headroomText}".`)
  if (values.save !== undefined && values.save.trim() === '') throw new UsageError('The option --save needs a profile name.')
  return {
    profile: positionals[0] as string,
    runs: wholeNumber('runs', values.runs, 2, 1000),
    tokens: wholeNumber('tokens', values.tokens, 128, 100_000),
    radius: values.radius === undefined ? 2 : wholeNumber('radius', values.radius, 2, 64),
    headroomMiB: headroom,
    saveAs: values.save?.trim() ?? null,
    format: outputFormat(values),
  }
}

export const tuneCommand: CliCommand = {
  ...TUNE_HELP,
  run: async (args, io) => {
    const o = parseTuneArgs(args)
    return runBenchCli(io, { format: o.format }, (deps) =>
      tuneProfile(deps, o.profile, {
        runs: o.runs,
        tokens: o.tokens,
        radius: o.radius,
        saveAs: o.saveAs,
        ...(o.headroomMiB !== null ? { headroomMiB: o.headroomMiB } : {}),
      }),
    )
  },
}
