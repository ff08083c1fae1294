import { resolveHome } from '../home'
import { portOverride, PortOverrideError } from '../settings/port-override'
import { UsageError } from './cli-error'
import { didYouMean } from './did-you-mean'
import type { CliCommand, CliContext } from './command'
import { COMMANDS } from './commands'
import { asksForHelp, formatCommandUsage, formatUsage } from './usage'
import { problemFrom } from '../lib/problem-from'
import { problemText } from './problem-text'

declare const __LLAMA_TRAY_VERSION__: string | undefined

interface GlobalOptions {
  home?: string
  help: boolean
  version: boolean
  verbose: boolean
  rest: string[]
}

/** --verbose anywhere before a lone "--" (a command's own options may carry it too): problems print their details. */
function verboseFromArgv(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end === -1 ? argv : argv.slice(0, end)).includes('--verbose')
}

/** Splits off the global options that may precede the command name. */
export function splitGlobalOptions(argv: readonly string[]): GlobalOptions {
  const out: GlobalOptions = { help: false, version: false, verbose: verboseFromArgv(argv), rest: [] }
  let i = 0
  for (; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === '--home') {
      if (i + 1 >= argv.length) throw new UsageError('The option --home needs a folder.')
      out.home = argv[++i] as string
    } else if (a.startsWith('--home=')) out.home = a.slice('--home='.length)
    else if (a === '-h' || a === '--help') out.help = true
    else if (a === '-v' || a === '--version') out.version = true
    else if (a === '--verbose') out.verbose = true
    else break
  }
  out.rest = argv.slice(i)
  return out
}

/** Where the CLI writes and hears Ctrl+C: the process's own in the `llama-tray` bin, captured ones in tests. */
export interface CliStreams {
  readonly stdout: CliContext['stdout']
  readonly stderr: CliContext['stderr']
  readonly signals: CliContext['signals']
}

async function dispatch(argv: readonly string[], io: CliStreams): Promise<number> {
  const global = splitGlobalOptions(argv)
  if (global.version) {
    io.stdout.write(`${typeof __LLAMA_TRAY_VERSION__ === 'string' ? __LLAMA_TRAY_VERSION__ : 'dev'}\n`)
    return 0
  }
  const [name, ...args] = global.rest
  const find = (n: string): CliCommand => {
    const command = COMMANDS.find((c) => c.name === n)
    if (!command) {
      const names = COMMANDS.map((c) => c.name)
      const guess = didYouMean(n, names)
      throw new UsageError(
        guess ? `Unknown command "${n}"${guess}; known: ${names.join(', ')}.` : `Unknown command "${n}" (known: ${names.join(', ')}).`,
      )
    }
    return command
  }
  if (name === 'help' && args[0] !== undefined) {
    io.stdout.write(formatCommandUsage(find(args[0])))
    return 0
  }
  if (global.help || name === 'help' || (name === undefined && argv.length === 0)) {
    io.stdout.write(formatUsage(COMMANDS))
    return 0
  }
  if (name === undefined) throw new UsageError('No command given (try: llama-tray --help).')
  const command = find(name)
  if (asksForHelp(args)) {
    io.stdout.write(formatCommandUsage(command))
    return 0
  }
  try {
    portOverride() // a bad $LLAMA_TRAY_PORT is one line and exit code 2, before anything starts
  } catch (err) {
    if (err instanceof PortOverrideError) throw new UsageError(err.message)
    throw err
  }
  const context: CliContext = {
    home: resolveHome(global.home),
    stdout: io.stdout,
    stderr: io.stderr,
    signals: io.signals,
    verbose: global.verbose,
  }
  return command.run(args, context)
}

/** Runs `llama-tray <argv>` and resolves to its exit code; a problem is printed as one sentence (its details with --verbose). */
export async function cliMain(argv: readonly string[], io: CliStreams): Promise<number> {
  try {
    return await dispatch(argv, io)
  } catch (err) {
    // One sentence; the raw details (a tool's words, a bug's stack) only with --verbose.
    io.stderr.write(problemText(problemFrom(err), verboseFromArgv(argv)))
    return err instanceof UsageError ? 2 : 1
  }
}
