import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/** The CLI's own log in the home's logs folder: what the last-resort handler caught, with its stack. */
export const CLI_LOG_FILE = 'llama-tray-cli.log'

/** The sentence a user sees for an error nothing else caught (the stack goes to the CLI log, never to the terminal). */
export function lastResortSentence(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0]?.slice(0, 100) ?? ''
  return `llama-tray: an unexpected error was caught (${message}); it keeps running, the details are in ${CLI_LOG_FILE} in the logs folder.\n`
}

/**
 * The handler of last resort for the `llama-tray` bin: an error thrown where nothing catches it (a timer, a
 * listener) is written to <home>/logs/llama-tray-cli.log with its stack and said once in one sentence, and the
 * process keeps running, so the supervisor still stops its llama-server (dying here left it an orphan).
 */
export function installLastResort(proc: NodeJS.Process, stderr: NodeJS.WritableStream, home: () => string | null): void {
  const said = new Set<string>()
  const handle = (err: unknown): void => {
    const dir = home()
    const stack = err instanceof Error ? (err.stack ?? err.message) : String(err)
    if (dir !== null) {
      try {
        mkdirSync(join(dir, 'logs'), { recursive: true })
        appendFileSync(join(dir, 'logs', CLI_LOG_FILE), `${new Date().toISOString()} ${stack}\n`)
      } catch {
        // No log to write to (a read-only home): the sentence still goes out.
      }
    }
    const sentence = lastResortSentence(err)
    if (said.has(sentence)) return
    said.add(sentence)
    stderr.write(sentence)
  }
  proc.on('uncaughtException', handle)
  proc.on('unhandledRejection', handle)
}
