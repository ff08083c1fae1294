import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import type { CliContext } from '../../app/cli/command'

/** A CliContext for running a command in-process, and what the command wrote to stdout and stderr. */
export function cliIo(home: string): CliContext & { readonly out: () => string; readonly err: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (c: Buffer) => (out += c.toString()))
  stderr.on('data', (c: Buffer) => (err += c.toString()))
  return { home, stdout, stderr, signals: new EventEmitter(), out: () => out, err: () => err }
}
