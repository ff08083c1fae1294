import { parseArgs } from 'node:util'
import { UsageError } from './cli-error'

export interface RunOptions {
  readonly command: 'run'
  readonly home: string | undefined
  readonly cmd: string
  readonly json: boolean
  readonly intervalMs: number
  readonly durationS: number | null
  readonly readyTimeoutS: number
}

export type CliRequest = RunOptions | { readonly command: 'help' } | { readonly command: 'version' }

function positiveNumber(name: string, text: string | undefined, fallback: number | null): number | null {
  if (text === undefined) return fallback
  const n = Number(text)
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} needs a positive number, got "${text}"`)
  return n
}

/** Parses the CLI's own arguments (not llama-server's: those come inside --cmd). */
export function parseCli(argv: readonly string[]): CliRequest {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        home: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        cmd: { type: 'string' },
        json: { type: 'boolean' },
        interval: { type: 'string' },
        duration: { type: 'string' },
        'ready-timeout': { type: 'string' },
      },
    })
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0] as string)
  }
  const { values, positionals } = parsed
  if (values.help) return { command: 'help' }
  if (values.version) return { command: 'version' }
  const [command, ...rest] = positionals
  if (command === undefined) throw new UsageError('no command given (try: llama-tray run --cmd "llama-server -m model.gguf")')
  if (command !== 'run') throw new UsageError(`unknown command "${command}" (known: run)`)
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}": profiles are not supported yet, pass --cmd "<llama-server command line>"`)
  if (!values.cmd || values.cmd.trim() === '') throw new UsageError('run needs --cmd "<llama-server command line>"')
  return {
    command: 'run',
    home: values.home,
    cmd: values.cmd,
    json: values.json ?? false,
    intervalMs: positiveNumber('interval', values.interval, 1000) as number,
    durationS: positiveNumber('duration', values.duration, null),
    readyTimeoutS: positiveNumber('ready-timeout', values['ready-timeout'], 120) as number,
  }
}
