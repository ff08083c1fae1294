import type { ServerStatus } from '../contract/server-state'
import { CommandLineError, tokenizeCommandLine } from '../lib/command-line'
import { buildSnapshot } from '../snapshot/build-snapshot'
import { ServerSupervisor } from '../supervisor/supervisor'
import { UsageError } from './cli-error'
import type { RunOptions } from './parse-cli'
import { formatStatusLine } from './status-line'

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean }
  readonly stderr: NodeJS.WritableStream
}

/** Failures found before llama-server was spawned are the user's input, not the server's. */
function neverSpawned(status: ServerStatus): boolean {
  return status.lastExit !== null && status.lastExit.code === null && status.lastExit.signal === null
}

/**
 * `llama-tray run`: supervises one llama-server until Ctrl+C, --duration, or
 * a failure the supervisor gives up on. Resolves to the process exit code.
 */
export async function runCommand(options: RunOptions & { home: string }, io: CliIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  let argv: string[]
  try {
    argv = tokenizeCommandLine(options.cmd)
  } catch (err) {
    if (err instanceof CommandLineError) throw new UsageError(`cannot read --cmd: ${err.message}`)
    throw err
  }
  const [exe, ...args] = argv
  if (!exe) throw new UsageError('--cmd is empty: give the llama-server command line')

  const supervisor = new ServerSupervisor({ home: options.home, readyTimeoutMs: options.readyTimeoutS * 1000 })
  const tty = !options.json && Boolean(io.stdout.isTTY)
  const write = (text: string): void => {
    try {
      io.stdout.write(text)
    } catch {
      // a closed pipe (| head) must not crash the supervisor
    }
  }
  const printHuman = (status: ServerStatus): void => {
    const line = formatStatusLine(status)
    write(tty ? `\r\x1b[2K${line}` : `${line}\n`)
  }
  const printSnapshot = (): void => write(`${JSON.stringify(buildSnapshot(supervisor.getStatus()))}\n`)

  let finish!: (code: number) => void
  const done = new Promise<number>((resolve) => (finish = resolve))
  let stopping = false
  const stopAndExit = async (code: number): Promise<void> => {
    if (stopping) return
    stopping = true
    await supervisor.dispose()
    if (options.json) printSnapshot()
    else printHuman(supervisor.getStatus())
    if (tty) write('\n')
    finish(code)
  }

  supervisor.on('state', (status) => {
    if (!options.json && !tty) printHuman(status)
    if (status.state === 'errored' || status.state === 'crashloop') {
      const exit = status.lastExit
      io.stderr.write(`llama-tray: ${exit?.reason ?? status.state}${exit?.hint ? `\n  hint: ${exit.hint}` : ''}\n`)
      void stopAndExit(neverSpawned(status) ? 2 : 1)
    }
  })

  const onSignal = (): void => {
    if (stopping) {
      io.stderr.write('llama-tray: still stopping llama-server (it is being killed if it does not exit)\n')
      return
    }
    void stopAndExit(0)
  }
  signals.on('SIGINT', onSignal)
  signals.on('SIGTERM', onSignal)
  signals.on('SIGHUP', onSignal)

  const ticker = setInterval(() => {
    if (stopping) return
    if (options.json) printSnapshot()
    else if (tty) printHuman(supervisor.getStatus())
  }, options.intervalMs)
  const durationTimer = options.durationS !== null ? setTimeout(() => void stopAndExit(0), options.durationS * 1000) : null

  void supervisor.start({ profileId: 'cli', exe, args })
  try {
    return await done
  } finally {
    clearInterval(ticker)
    if (durationTimer) clearTimeout(durationTimer)
    signals.off('SIGINT', onSignal)
    signals.off('SIGTERM', onSignal)
    signals.off('SIGHUP', onSignal)
  }
}
