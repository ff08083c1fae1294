import type { BenchProgress, BenchReport } from '../contract/bench'
import { createStandardCore, standardTelemetry } from '../core/create-core'
import { ProfileLaunchError } from '../profiles/resolve-launch'
import { TelemetryService } from '../telemetry/telemetry-service'
import { formatReportCsv, formatReportMarkdown, formatReportText } from '../bench/format'
import { BenchCancelledError, BenchStartError } from '../bench/bench-launch'
import { TuneError, type TuneDeps } from '../bench/tune'
import { UsageError } from './cli-error'

export type OutputFormat = 'text' | 'json' | 'markdown' | 'csv'

export interface BenchCliIo {
  readonly home: string
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean }
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean }
  readonly signals: NodeJS.EventEmitter
}

export interface BenchCliOptions {
  readonly format: OutputFormat
  /** Builds the telemetry the core samples (tests give a fake GPU); default: the platform's. */
  readonly telemetry?: () => TelemetryService
}

function seconds(ms: number | null): string {
  if (ms === null) return '?'
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

/** "[3/14 0:12, ~0:40 left] tiny · round 1/2: code run 2/3" */
export function formatProgress(p: BenchProgress): string {
  return (
    `[${p.step}/${p.totalSteps} ${seconds(p.elapsedMs)}${p.remainingMs === null ? '' : `, ~${seconds(p.remainingMs)} left`}] ` +
    `${p.message}`
  )
}

export function formatReport(report: BenchReport, format: OutputFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report)}\n`
    case 'markdown':
      return `${formatReportMarkdown(report)}\n`
    case 'csv':
      return formatReportCsv(report)
    default:
      return `${formatReportText(report)}\n`
  }
}

/**
 * Runs a bench job for the CLI: a core with telemetry, progress on stderr,
 * Ctrl+C (SIGINT/SIGTERM) cancels and puts the server back, the report on
 * stdout. Resolves to the exit code: 0, 1 when a server or request failed,
 * 130 when cancelled; bad input throws UsageError (exit 2).
 */
export async function runBenchCli(
  io: BenchCliIo,
  options: BenchCliOptions,
  job: (deps: TuneDeps) => Promise<BenchReport>,
): Promise<number> {
  // The same factory as `run` and the app: the user's heavy-apps.json counts in the runs' conditions.
  const warn = (m: string): void => void io.stderr.write(`llama-tray: ${m}\n`)
  const telemetry = options.telemetry ? options.telemetry() : standardTelemetry(io.home, { warn })
  const core = await createStandardCore({ home: io.home, telemetry })
  const abort = new AbortController()
  const onSignal = (): void => {
    if (abort.signal.aborted) {
      io.stderr.write('llama-tray: Still cancelling: llama-server is being stopped.\n')
      return
    }
    io.stderr.write('\nllama-tray: Cancelling…\n')
    abort.abort()
  }
  io.signals.on('SIGINT', onSignal)
  io.signals.on('SIGTERM', onSignal)
  const tty = Boolean(io.stderr.isTTY)
  let lastLine = 0
  const onProgress = (p: BenchProgress): void => {
    const line = formatProgress(p)
    if (tty) io.stderr.write(`\r\x1b[2K${line}`)
    else if (p.phase !== 'run' || Date.now() - lastLine > 5000) {
      io.stderr.write(`${line}\n`)
      lastLine = Date.now()
    }
  }
  try {
    const report = await job({ core, home: io.home, telemetry, signal: abort.signal, onProgress })
    if (tty) io.stderr.write('\r\x1b[2K')
    io.stdout.write(formatReport(report, options.format))
    return 0
  } catch (err) {
    if (tty) io.stderr.write('\r\x1b[2K')
    if (err instanceof BenchCancelledError) {
      io.stderr.write('llama-tray: Cancelled; the server was put back as it was.\n')
      return 130
    }
    // Bad input (unknown profile, flags its binary rejects, a taken --save name) is a usage error.
    if (err instanceof ProfileLaunchError) throw new UsageError(err.message, err.toProblem())
    if (err instanceof TuneError || err instanceof RangeError) throw new UsageError(err.message)
    if (err instanceof BenchStartError || (err instanceof Error && !(err instanceof TypeError) && !(err instanceof ReferenceError))) {
      io.stderr.write(`llama-tray: ${err.message}\n`)
      return 1
    }
    throw err
  } finally {
    io.signals.off('SIGINT', onSignal)
    io.signals.off('SIGTERM', onSignal)
    await core.dispose()
  }
}
