import type { CliCoreFactory } from './cli-core-factory'
import type { HeldHome, HomeLockHolderKind } from '../core/home-lock'

/** What every CLI command receives. */
export interface CliContext {
  /** The resolved home folder (--home, $LLAMA_TRAY_HOME or the platform default). */
  readonly home: string
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  readonly stderr: NodeJS.WritableStream
  /** Where SIGINT/SIGTERM arrive (process in production, an emitter in tests). */
  readonly signals: NodeJS.EventEmitter
  /** Builds the core of `run` and `serve`; default: the standard core (a test gives a scripted one). */
  readonly createCore?: CliCoreFactory
  /** Takes the home for `run` and `serve` (one app, serve or run per home); default: HomeLock.acquire (a test's scripted core needs none). */
  readonly lockHome?: (home: string, kind: HomeLockHolderKind) => Promise<HeldHome>
  /** --verbose: problems are printed with their raw details (a tool's own words, log lines, a stack). */
  readonly verbose?: boolean
}

/** What the usage text says of a command. */
export interface CommandHelp {
  readonly name: string
  /** One line for the usage text. */
  readonly summary: string
  /** Usage lines for this command's options. */
  readonly usage: string
}

export interface CliCommand extends CommandHelp {
  /** Runs with the arguments after the command name; resolves to the exit code. Throws UsageError for bad input. */
  run(args: readonly string[], context: CliContext): Promise<number>
}
