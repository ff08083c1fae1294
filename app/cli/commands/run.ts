import { failureSentence } from '../../contract/wording'
import type { LaunchSpec } from '../../contract/commands'
import type { ServerStatus, ServerStatusOf } from '../../contract/server-state'
import type { Snapshot } from '../../contract/snapshot'
import { CommandLineError, tokenizeCommandLine } from '../../lib/command-line'
import { standardCliCore } from '../cli-core-factory'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions, positiveNumber, type NumberMeaning } from '../parse-options'
import { assertLaunchable, ProfileLaunchError, resolveProfileLaunch } from '../../profiles/resolve-launch'
import { followPinned, pinnedLine } from '../pinned-lines'
import { fitToWidth, formatStatusLine } from '../status-line'
import { problemText } from '../problem-text'
import { WarningLines } from '../warning-lines'
import { STILL_STOPPING } from '../server-sentences'
import { clientBaseUrl, isWsl, wslNote } from '../../lib/client-address'
import { followPowerNotices } from '../power-lines'
import { RUN_HELP } from './run-help'
import { HomeLock, type HeldHome } from '../../core/home-lock'

export interface RunOptions {
  /** A command line to run, or a stored profile to resolve. */
  readonly source: { readonly kind: 'cmd'; readonly spec: LaunchSpec } | { readonly kind: 'profile'; readonly idOrName: string }
  readonly json: boolean
  /** --interval, or null: the default cadence when watched (--json, a terminal), the core's idle pace otherwise. */
  readonly intervalMs: number | null
  readonly durationS: number | null
  readonly readyTimeoutS: number
}

/** Back to the start of the row and erase it: how the status line is redrawn in place. */
const ERASE_LINE = '\r\x1b[2K'

const MILLISECONDS: NumberMeaning = { unit: 'milliseconds', example: '1000' }
const SECONDS: NumberMeaning = { unit: 'seconds', example: '60' }

/** Parses `run`'s options: a profile name, or the whole llama-server command inside --cmd. */
export function parseRunArgs(args: readonly string[]): RunOptions {
  const { values, positionals } = parseOptions(
    args,
    {
      cmd: { type: 'string' },
      json: { type: 'boolean' },
      interval: { type: 'string' },
      duration: { type: 'string' },
      'ready-timeout': { type: 'string' },
    },
    true,
  )
  if (positionals.length > 1)
    throw new UsageError(`Unexpected argument "${positionals[1]}"; run takes one profile, or --cmd "<llama-server command line>".`)
  const options = {
    json: values.json ?? false,
    intervalMs: positiveNumber('interval', values.interval, null, MILLISECONDS),
    durationS: positiveNumber('duration', values.duration, null, SECONDS),
    readyTimeoutS: positiveNumber('ready-timeout', values['ready-timeout'], 120, { unit: 'seconds', example: '120' }),
  }
  const profile = positionals[0]
  if (profile !== undefined && values.cmd !== undefined) throw new UsageError('Give either a profile or --cmd, not both.')
  if (profile !== undefined) return { source: { kind: 'profile', idOrName: profile }, ...options }
  if (!values.cmd || values.cmd.trim() === '')
    throw new UsageError('Run needs a profile or --cmd "<llama-server command line>" (llama-tray profiles list shows the profiles).')
  let argv: string[]
  try {
    argv = tokenizeCommandLine(values.cmd)
  } catch (err) {
    if (err instanceof CommandLineError)
      throw new UsageError(`The --cmd command line cannot be read: ${err.message}${/[.!?]$/.test(err.message) ? '' : '.'}`)
    throw err
  }
  const [exe, ...rest] = argv
  if (!exe) throw new UsageError('The --cmd command line is empty; give the whole llama-server command.')
  return { source: { kind: 'cmd', spec: { profileId: 'cli', exe, args: rest } }, ...options }
}

/** What to start: the pasted command as is, or a stored profile already checked against what its binary accepts. */
async function resolveSource(options: RunOptions, home: string): Promise<{ spec: LaunchSpec } | { profileId: string }> {
  if (options.source.kind === 'cmd') return { spec: options.source.spec }
  try {
    const resolved = await resolveProfileLaunch(home, options.source.idOrName)
    assertLaunchable(resolved)
    // Its own server would run beside the one run starts for it: the same model twice.
    if (resolved.profile.pinned)
      throw new UsageError(
        `Profile "${resolved.profile.id}" is pinned, so it runs beside the active profile while Llama Tray serves; ` +
          `run another profile (the pinned ones start beside it), or unpin it first: llama-tray profiles unpin ${resolved.profile.id}.`,
      )
    return { profileId: resolved.profile.id }
  } catch (err) {
    if (err instanceof ProfileLaunchError) throw new UsageError(err.message, err.toProblem())
    throw err
  }
}

/** The cadence of --json and of a terminal's status row when no --interval is given. */
export const WATCHED_INTERVAL_MS = 1000

/**
 * The core's cadence: fixed where every snapshot is shown (--json, the status row on a terminal, an --interval),
 * none otherwise. Text into a file or a pipe prints only changes (states, warnings), so nobody watches the
 * figures and the core keeps its idle pace (a tick per minute to per 5 s with a ready server, no request):
 * at 1 Hz, `run` cost 1.09 ms/s of CPU against serve's 0.26 on the H200 host, from outside.
 */
export function runCadence(options: Pick<RunOptions, 'json' | 'intervalMs'>, tty: boolean): { cadenceMs?: number } {
  if (options.intervalMs !== null) return { cadenceMs: options.intervalMs }
  return options.json || tty ? { cadenceMs: WATCHED_INTERVAL_MS } : {}
}

/** Failures found before llama-server was spawned are the user's input, not the server's. */
function neverSpawned(status: ServerStatus): boolean {
  return status.lastExit !== null && status.lastExit.code === null && status.lastExit.signal === null
}

/**
 * Supervises one llama-server until Ctrl+C, --duration, or
 * a failure the supervisor gives up on. Resolves to the process exit code.
 */
export async function superviseUntilDone(options: RunOptions, io: CliContext): Promise<number> {
  const source = await resolveSource(options, io.home) // bad input is refused before anything starts
  // One app, serve or run per home: a second one is refused with the first's pid and port (HomeInUseError).
  const lock = await (io.lockHome ?? HomeLock.acquire)(io.home, 'run')
  try {
    return await superviseHoldingHome(options, io, source, lock)
  } finally {
    await lock.release()
  }
}

async function superviseHoldingHome(
  options: RunOptions,
  io: CliContext,
  source: { spec: LaunchSpec } | { profileId: string },
  lock: HeldHome,
): Promise<number> {
  const signals = io.signals
  const tty = !options.json && Boolean(io.stdout.isTTY)
  const write = (text: string): void => {
    try {
      io.stdout.write(text)
    } catch {
      // a closed pipe (| head) must not crash the supervisor
    }
  }
  // A line on stderr shares the terminal with the status row: erase the row first, or the line is glued to it.
  let rowShown = false
  const note = (text: string): void => {
    if (rowShown) write(ERASE_LINE)
    rowShown = false
    io.stderr.write(`llama-tray: ${text}\n`)
  }
  const core = await (io.createCore ?? standardCliCore)({
    home: io.home,
    readyTimeoutMs: options.readyTimeoutS * 1000,
    ...runCadence(options, tty),
    warn: note,
  })
  const warningLines = new WarningLines(io.verbose ?? false)
  // On a terminal: warnings that appeared or cleared go on their own lines above, then the one status row is redrawn.
  const printHuman = (status: ServerStatus, snapshot: Snapshot = core.snapshot()): void => {
    const line = formatStatusLine(status, snapshot)
    if (!tty) return write(`${line}\n`)
    const above = warningLines
      .update(snapshot.warnings)
      .map((w) => `${ERASE_LINE}${w}\n`)
      .join('')
    write(`${above}${ERASE_LINE}${fitToWidth(line, io.stdout.columns)}`)
    rowShown = true
  }
  // Without a terminal nothing is redrawn: a warning is printed when it appears or clears, like a state change.
  const printWarningChanges = (snapshot: Snapshot): void => {
    for (const w of warningLines.update(snapshot.warnings)) write(`${w}\n`)
  }
  const printSnapshot = (snapshot: Snapshot = core.snapshot()): void => write(`${JSON.stringify(snapshot)}\n`)

  let finish!: (code: number) => void
  const done = new Promise<number>((resolve) => (finish = resolve))
  let stopping = false
  const stopAndExit = async (code: number): Promise<void> => {
    if (stopping) return
    stopping = true
    await core.dispose()
    if (options.json) printSnapshot()
    else if (tty) write(`${ERASE_LINE}${fitToWidth(formatStatusLine(core.server.getStatus(), core.snapshot()), io.stdout.columns)}\n`)
    finish(code)
  }

  let addressShown = false
  let profileStartInFlight = false
  core.on('server:state-changed', (status) => {
    if (!options.json && !tty) printHuman(status)
    if (status.state === 'ready') void lock.setPort(status.port)
    if (status.state === 'ready' && !addressShown && !options.json) {
      addressShown = true
      note(`The OpenAI-compatible API is at ${clientBaseUrl(status.host, status.port)}.`)
      if (isWsl()) note(wslNote(status.port))
    }
    // While a profile's start is in flight its outcome decides: a load that ran out of GPU memory is retried once.
    if ((status.state === 'errored' || status.state === 'crashloop') && !profileStartInFlight) endRun(status)
  })
  const endRun = (status: ServerStatusOf<'errored' | 'crashloop'>): void => {
    if (stopping) return // said once, whichever of the state change and the start's result comes first
    const failure = status.lastExit.problem
    // The sentence, then the command that fixes it; the log lines with --verbose.
    if (failure) io.stderr.write(`${rowShown ? ERASE_LINE : ''}${problemText(failure, io.verbose ?? false)}`)
    else note(failureSentence(`the server ended ${status.state}`, null))
    rowShown = false
    void stopAndExit(neverSpawned(status) ? 2 : 1)
  }

  const onSignal = (): void => {
    if (stopping) {
      note(STILL_STOPPING)
      return
    }
    void stopAndExit(0)
  }
  signals.on('SIGINT', onSignal)
  signals.on('SIGTERM', onSignal)
  signals.on('SIGHUP', onSignal)

  // A pinned server's state gets a line when it changes (ready, or given up on); the status row names it too.
  const pinnedChanges = followPinned((p, worthALine) => worthALine && note(pinnedLine(p)), false)
  // The core's clock is the only clock: print each snapshot it publishes (its cadence: runCadence).
  const powerNotices = followPowerNotices(note)
  const offSnapshot = core.on('snapshot', (snapshot) => {
    if (stopping) return
    powerNotices(snapshot)
    if (options.json) printSnapshot(snapshot)
    else {
      pinnedChanges(snapshot)
      if (tty) printHuman(snapshot.server, snapshot)
      else printWarningChanges(snapshot)
    }
  })
  const durationTimer = options.durationS !== null ? setTimeout(() => void stopAndExit(0), options.durationS * 1000) : null

  if ('spec' in source) void core.startSpec(source.spec)
  else {
    void core.servePinned() // pinned profiles run beside the one run starts
    profileStartInFlight = true
    void core.startProfile(source.profileId).then((result) => {
      profileStartInFlight = false
      const status = core.server.getStatus()
      if (!result.ok && (status.state === 'errored' || status.state === 'crashloop')) endRun(status)
      const retry = result.ok ? core.snapshot().placementRetry : null
      if (retry) note(`${retry.sentence} The profile is unchanged (the dashboard's Keep in profile stores it).`)
    })
  }
  try {
    return await done
  } finally {
    offSnapshot()
    if (durationTimer) clearTimeout(durationTimer)
    signals.off('SIGINT', onSignal)
    signals.off('SIGTERM', onSignal)
    signals.off('SIGHUP', onSignal)
  }
}

export const runCommand: CliCommand = {
  ...RUN_HELP,
  run: (args, context) => superviseUntilDone(parseRunArgs(args), context),
}
